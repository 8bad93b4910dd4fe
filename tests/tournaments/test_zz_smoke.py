import pytest
from tests.tournaments.live_support import *
from tournaments.services import live
from tournaments.models import StandingsSnapshot, StandingsState

@pytest.mark.django_db(transaction=True)
def test_smoke():
    ev = make_event()
    es = make_entries(ev, 5)
    d = make_director(ev)
    ms = make_round(ev, 1, [(es[0], es[1]), (es[2], es[3]), (es[4], None)])
    confirm(ms[0], 100, 50, d)
    confirm(ms[1], 30, 100, d)
    snap = StandingsSnapshot.objects.filter(event=ev).first()
    print(snap.generation, snap.data[:1500])
    print(StandingsState.objects.get(event=ev).__dict__)
    out = live.recompute_standings(event_id=ev.pk, force=True)
    print(out)
