"""The public names other parts of Spinner depend on, exactly as the issue names them."""

import json

import scoring


def test_the_public_api_other_helpers_use() -> None:
    sheet = next(scoring.simulate("all-fives", 3, seed=1, count=1))
    verdict = scoring.verify(sheet)
    assert isinstance(verdict, scoring.Verdict) and verdict.valid
    d = verdict.as_dict()
    assert list(d) == ["valid", "errors", "scores", "winner", "finished"]
    assert scoring.verify_json(json.dumps(sheet)).as_dict() == d
    assert scoring.first_divergence(sheet, sheet) is None
    lay = scoring.position_after(sheet, 0, None)
    assert isinstance(lay, scoring.Layout) and len(lay) > 0
    assert scoring.picture(lay).as_dict()["total"] == lay.total
    assert scoring.find_ruleset("five-up").name == "five-up"
    assert str(scoring.Tile.parse("6-4")) == "4-6"
