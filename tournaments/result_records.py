"""A match's scoresheets and results: the claims each side's link submits (versioned drafts,
finished sheets, confirmations) and the confirmed results, versioned by corrections.

Thin models like those of ``tournaments.models``, which re-exports them (import them from there).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.fast_json import FastJSONEncoder


class Claim(models.Model):
    """One version of one side's account of a match: a ``fives-scoresheet/1`` sheet, or (where the
    event allows it) a final score only, which is marked unverified.

    Every submission is a new row, never an overwrite: ``version`` counts a side's submissions
    (1, 2, ...) and the side's current claim is its highest version. A sheet the engine finds
    invalid, or one whose match is not over, is kept as a ``draft`` with its verdict, so nothing
    a table entered is lost. ``side`` 0 is the match's ``entry_a``, 1 its ``entry_b``; at a table
    of many (``Match.table_entries`` 3 or 4) the side is the seat (0 to 3) and ``scores_halves``
    holds every seat's score (``score_a_halves`` and ``score_b_halves`` seats 0 and 1).

    Scores are raw points per entity in seat order (entity 0 = side 0), stored exactly as
    integers of half-points (halves occur in ``all-fives`` with three players).
    """

    class Kind(models.TextChoices):
        SHEET = "sheet", _("Scoresheet")
        FINAL_SCORE = "final_score", _("Final score only (unverified)")

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft (invalid or unfinished)")
        SUBMITTED = "submitted", _("Submitted")

    class Origin(models.TextChoices):
        TABLE = "table", _("Table link")
        DIRECTOR = "director", _("Director")

    match = models.ForeignKey("tournaments.Match", on_delete=models.CASCADE, related_name="claims")
    side = models.PositiveSmallIntegerField()
    version = models.PositiveIntegerField()
    kind = models.CharField(max_length=16, choices=Kind.choices)
    status = models.CharField(max_length=16, choices=Status.choices)
    sheet = models.JSONField(null=True, blank=True, encoder=FastJSONEncoder)
    # sha256 of the canonical sheet (or final score): equal digests from both sides confirm.
    digest = models.CharField(max_length=64)
    verdict = models.JSONField(null=True, blank=True, encoder=FastJSONEncoder)
    verified = models.BooleanField(default=False)
    score_a_halves = models.IntegerField(null=True, blank=True)
    score_b_halves = models.IntegerField(null=True, blank=True)
    winner_side = models.PositiveSmallIntegerField(null=True, blank=True)
    scores_halves = models.JSONField(null=True, blank=True)
    finished = models.BooleanField(default=False)
    # Set when this claim was made by confirming the other side's claim as it stood.
    confirms = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    origin = models.CharField(max_length=16, choices=Origin.choices, default=Origin.TABLE)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # The table phone's device id (kept in its browser, sent with the claim; "" when not sent).
    device = models.CharField(max_length=64, blank=True, default="")
    # A confirmation sent from the device that sent the claim it confirms: the desk says so.
    same_device = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "side", "version"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "side", "version"], name="claim_version_once_per_side"
            ),
            models.CheckConstraint(condition=Q(side__lte=3), name="claim_side_is_a_seat"),
            models.CheckConstraint(condition=Q(version__gte=1), name="claim_version_positive"),
            models.CheckConstraint(
                condition=Q(winner_side__isnull=True) | Q(winner_side__lte=3),
                name="claim_winner_is_a_seat",
            ),
            models.CheckConstraint(
                condition=Q(kind="final_score") | Q(sheet__isnull=False),
                name="claim_sheet_kind_has_a_sheet",
            ),
        ]

    def __str__(self) -> str:
        return f"claim {self.match_id}/{self.side} v{self.version} ({self.status})"


class MatchResult(models.Model):
    """A confirmed result of a match, versioned: a correction adds a version, never overwrites.

    Exactly one version per match is current (``is_current``); the database refuses a second
    (``one_confirmed_result_per_match``). ``source`` says how it was reached: both sides agreed,
    the director resolved a conflict by picking a claim, entered an arbitral result, or corrected
    a confirmed one. Scores as in ``Claim``: raw points, half-points as integers, seat order. At a
    table of many ``scores_halves`` holds every seat's score and ``placings`` every seat's place
    (1 = first; equal scores share a place, as ``standings.multiplayer.placings`` says).
    """

    class Source(models.TextChoices):
        AGREED = "agreed", _("Both sides agreed")
        RESOLVED = "resolved", _("Conflict resolved by the director")
        ARBITRAL = "arbitral", _("Arbitral result entered by the director")
        CORRECTION = "correction", _("Correction by the director")
        FORFEIT = "forfeit", _("Forfeit recorded by the director")

    class Forfeit(models.TextChoices):
        NONE = "", _("Played")
        A = "a", _("Side A forfeited")
        B = "b", _("Side B forfeited")
        BOTH = "both", _("Both sides forfeited")

    match = models.ForeignKey("tournaments.Match", on_delete=models.CASCADE, related_name="results")
    version = models.PositiveIntegerField()
    is_current = models.BooleanField(default=True)
    source = models.CharField(max_length=16, choices=Source.choices)
    claim = models.ForeignKey(
        Claim, null=True, blank=True, on_delete=models.PROTECT, related_name="results"
    )
    kind = models.CharField(max_length=16, choices=Claim.Kind.choices)
    sheet = models.JSONField(null=True, blank=True, encoder=FastJSONEncoder)
    verdict = models.JSONField(null=True, blank=True, encoder=FastJSONEncoder)
    verified = models.BooleanField(default=False)
    score_a_halves = models.IntegerField()
    score_b_halves = models.IntegerField()
    winner_side = models.PositiveSmallIntegerField(null=True, blank=True)
    scores_halves = models.JSONField(null=True, blank=True)
    placings = models.JSONField(null=True, blank=True)
    # Who forfeited (a forfeit, a double forfeit or a no-show); empty for a played match.
    forfeit = models.CharField(max_length=4, choices=Forfeit.choices, default="", blank=True)
    reason = models.TextField(blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "version"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "version"], name="result_version_once_per_match"
            ),
            models.UniqueConstraint(
                fields=["match"],
                condition=Q(is_current=True),
                name="one_confirmed_result_per_match",
            ),
            models.CheckConstraint(condition=Q(version__gte=1), name="result_version_positive"),
            models.CheckConstraint(
                condition=Q(winner_side__isnull=True) | Q(winner_side__lte=3),
                name="result_winner_is_a_seat",
            ),
            models.CheckConstraint(
                condition=Q(forfeit__in=["", "a", "b", "both"]), name="result_forfeit_known"
            ),
        ]

    def __str__(self) -> str:
        return f"result {self.match_id} v{self.version} ({self.source})"
