"""Players across events: each player's rating history, and leagues that group events over a
season.

Thin models like those of ``tournaments.models``, which re-exports them (import them from there).
Ratings are written by ``services/ratings.py``; league tables are read by the selectors from
each event's frozen placings (``Event.placings``).
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class RatingChange(models.Model):
    """One step of a player's rating: after the rated games of one round of one event (all of a
    round's games are rated together, from the ratings before the round, so the order in which
    its results were confirmed changes nothing). ``mu``/``sigma`` are the model's values after
    the step; ``games`` the player's rated games then. Recomputing from scratch rewrites these
    rows with the same values."""

    player = models.ForeignKey(
        "tournaments.Player", on_delete=models.CASCADE, related_name="rating_changes"
    )
    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, related_name="+")
    round = models.ForeignKey("tournaments.Round", on_delete=models.CASCADE, related_name="+")
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["player", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["player", "round"], name="rating_change_per_round"),
            models.CheckConstraint(condition=Q(sigma__gt=0), name="rating_sigma_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} after round {self.round_id}: {self.mu:.2f}±{self.sigma:.2f}"


class League(models.Model):
    """A league season: events grouped over a season, ranked in a season table by points per
    placing (``points`` e.g. ``[25, 18, 15, 12, 10, 8, 6, 4, 2, 1]``: 1st, 2nd, ...; places
    beyond the list earn nothing) over each player's best ``best_of`` events (null: all)."""

    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=80, unique=True)
    season = models.CharField(max_length=40, blank=True, help_text=_('e.g. "2026".'))
    points = models.JSONField(default=list, blank=True)
    best_of = models.PositiveSmallIntegerField(null=True, blank=True)
    rank_partnerships = models.BooleanField(
        default=False, help_text=_("Rank partnerships too, beside the players.")
    )
    public = models.BooleanField(default=True)
    directors = models.ManyToManyField("auth.User", related_name="directed_leagues", blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-season", "name"]

    def __str__(self) -> str:
        return f"{self.name} {self.season}".strip()
