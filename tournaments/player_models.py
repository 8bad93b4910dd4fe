"""The people: players across events, and the partnerships two of them form.

Thin models like those of ``tournaments.models``, which re-exports them (import them from there).
A player's record is written by ``services/players.py``; an entry's members (``EntryPlayer``)
stay with the entries in ``tournaments.models``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _


class Player(models.Model):
    """A person who plays, across events. The record (name, club, contact, merges) is its
    owner's, the account that created it (``services.players.may_manage_player``): a director
    of another event the player enters edits what that event shows (the entry's name, the
    contact that event collected: ``EntryPlayer``), never this row. Contact details are never
    shown publicly."""

    name = models.CharField(max_length=120)
    # The name folded for search (accents and case removed: "Ramírez" -> "ramirez"), kept by
    # the players service on every write so that search is the same on SQLite and PostgreSQL.
    name_key = models.CharField(max_length=120, blank=True, db_index=True)
    club = models.CharField(max_length=120, blank=True)
    # A rating given at registration (seeding "by rating" before the player has a rated game).
    rating = models.IntegerField(null=True, blank=True)
    # The player's rating from rated results (``services/ratings.py``, openskill): the model's
    # mean and uncertainty, and how many rated games they rest on; null before the first.
    rating_mu = models.FloatField(null=True, blank=True)
    rating_sigma = models.FloatField(null=True, blank=True)
    rated_games = models.PositiveIntegerField(default=0)
    email = models.EmailField(blank=True)
    phone = models.CharField(max_length=40, blank=True)
    # Who may change this record: the account that created it (a director registering a new
    # player); null for the system's rows, which only superusers change.
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    # A row merged into another for the same person: it stays (the merge is reversible from
    # its audit record) but every page and search follows ``merged_into``.
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="merged"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "pk"]
        indexes = [models.Index(fields=["name"])]
        constraints = [
            models.CheckConstraint(
                condition=~Q(merged_into=F("pk")), name="player_not_merged_into_itself"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.club})" if self.club else self.name


class Partnership(models.Model):
    """Two players who play together. A player may be in different partnerships across events."""

    player_a = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player_b = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    name = models.CharField(max_length=120, blank=True, help_text=_("Optional team name."))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=~Q(player_a=F("player_b")), name="partnership_two_different_players"
            ),
        ]

    def __str__(self) -> str:
        return self.name or f"{self.player_a.name} & {self.player_b.name}"
