"""The plain records standings are computed from: entries, match results and the points setting.

Vocabulary:

- **entry**: what is ranked (a player or a partnership), named by an ``entry_id`` (an ``int`` or a
  ``str``; one event uses one kind). Its ``name`` is for display only and never affects the order.
- **result**: the outcome of one match between two entries (``entry_a`` against ``entry_b``), or a
  **bye** (``entry_b is None``: ``entry_a`` had no opponent that round). Raw scores are exact
  numbers, ``int`` or :class:`fractions.Fraction` (a blocked all-fives hand with three players can
  split an award into halves); floats are refused, since they could drift.
- **round kind**: ``swiss`` and ``round_robin`` rounds make the main standings; ``tiebreak`` rounds
  (extra games among entries still tied) only settle the order among the entries that played them;
  ``playoff`` rounds belong to the bracket and never count in the standings.
- **match points**: what a result is worth in the standings, set per event by :class:`PointsConfig`
  (e.g. win 2, draw 1, loss 0, bye 2, and an optional margin bonus).

Every record is immutable and checks itself on construction, raising :class:`ValueError` on
malformed input. Entries and results are named tuples, the cheapest records CPython makes and
reads (a recompute reads ten thousand results).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from itertools import repeat
from typing import NamedTuple, TypeAlias

EntryId: TypeAlias = int | str
"""An entry's identity: an ``int`` (a primary key) or a ``str``; one event uses one kind."""

MatchId: TypeAlias = int | str
"""A match's identity: an ``int`` (a primary key) or a ``str``."""

Number: TypeAlias = int | Fraction
"""An exact number: raw scores, match points and tiebreak values (never a float)."""


def is_exact(value: object) -> bool:
    """Whether ``value`` is an exact number: an ``int`` (not a ``bool``) or a ``Fraction``.

    >>> is_exact(3), is_exact(Fraction(5, 2)), is_exact(2.5), is_exact(True)
    (True, True, False, False)
    """
    return (type(value) is int) or isinstance(value, Fraction)


def normalise(value: Number) -> Number:
    """``value`` with a whole ``Fraction`` turned into an ``int`` (so ``Fraction(4, 2)`` is ``2``).

    Keeps equal values equal in type too, which keeps the canonical serialisation canonical.

    >>> normalise(Fraction(4, 2)), normalise(Fraction(5, 2)), normalise(7)
    (2, Fraction(5, 2), 7)
    """
    if type(value) is int:  # the common case, checked first: this runs per value
        return value
    if isinstance(value, Fraction) and value.denominator == 1:
        return value.numerator
    return value


def _check_id(value: object, what: str) -> None:
    if not ((type(value) is int) or isinstance(value, str)):
        raise ValueError(f"{what} must be an int or a str, not {value!r}")


class RoundKind(StrEnum):
    """What a round is for, and so whether its results count in the standings.

    - ``SWISS``, ``ROUND_ROBIN``: the main standings (every tiebreak is computed over these only).
    - ``TIEBREAK``: extra games among entries tied after the whole tiebreak list; they settle the
      order among the entries that played them and nothing else (see ``compute_standings``).
    - ``PLAYOFF``: the bracket; ignored by the standings.
    """

    SWISS = "swiss"
    ROUND_ROBIN = "round_robin"
    PLAYOFF = "playoff"
    TIEBREAK = "tiebreak"

    @property
    def counts(self) -> bool:
        """Whether results of this kind make the main standings (Swiss and round-robin rounds)."""
        return self in (RoundKind.SWISS, RoundKind.ROUND_ROBIN)


class _EntryFields(NamedTuple):
    entry_id: EntryId
    name: str = ""


class Entry(_EntryFields):
    """An entry of the event: ``entry_id`` identifies it; ``name`` is for display only.

    An immutable record (a named tuple, cheap to make by the thousand), checked when made.
    """

    __slots__ = ()

    def __new__(cls, entry_id: EntryId, name: str = "") -> Entry:
        _check_id(entry_id, "entry_id")
        return _new_tuple(cls, (entry_id, name))


class _ResultFields(NamedTuple):
    match_id: MatchId
    round_number: int
    kind: RoundKind
    entry_a: EntryId
    entry_b: EntryId | None
    score_a: Number
    score_b: Number
    winner: EntryId | None
    forfeit: bool = False


class Result(_ResultFields):
    """The confirmed result of one match (or a bye) in one round.

    - ``entry_b is None`` makes it a **bye** for ``entry_a``: it is worth ``PointsConfig.bye`` match
      points; its scores and ``winner`` are ignored (``winner`` must be ``None`` or ``entry_a``).
    - ``winner`` is authoritative (``entry_a``, ``entry_b``, or ``None`` for a draw); the scores are
      the raw scores as recorded and feed points for/against and the margin bonus.
    - ``forfeit=True``: the match was not played (a no-show). With a ``winner`` it is a forfeit by
      the other side: the winner gets :attr:`PointsConfig.forfeit_win_points` (no margin bonus),
      the other entry :attr:`PointsConfig.forfeit_loss_points`. ``winner=None`` with a forfeit is a
      **double forfeit**: nobody wins, both get :attr:`PointsConfig.double_forfeit_points`. The
      scores are the event's forfeit score as the caller recorded it (e.g. 150 to 0); they count
      in points for, against and spread unless ``PointsConfig.forfeit_spread`` is false. For the
      opponent-based tiebreaks a forfeit is an *unplayed* round, like a bye.
    - ``kind``: see :class:`RoundKind`; a plain string such as ``"swiss"`` is accepted (converted).

    An immutable record: a named tuple, the cheapest record CPython makes and reads (a recompute
    makes ten thousand of them), checked when made.
    """

    __slots__ = ()

    def __new__(
        cls,
        match_id: MatchId,
        round_number: int,
        kind: RoundKind | str,
        entry_a: EntryId,
        entry_b: EntryId | None,
        score_a: Number,
        score_b: Number,
        winner: EntryId | None,
        forfeit: bool = False,
    ) -> Result:
        # Cheap type tests first, messages on failure.
        if type(kind) is not RoundKind:
            try:
                kind = RoundKind(kind)
            except ValueError:
                raise ValueError(f"match {match_id!r}: unknown round kind {kind!r}") from None
        if type(match_id) is not int and type(match_id) is not str:
            _check_id(match_id, "match_id")
        if type(round_number) is not int or round_number < 1:
            raise ValueError(
                f"match {match_id!r}: round_number must be an int >= 1, not {round_number!r}"
            )
        if type(entry_a) is not int and type(entry_a) is not str:
            _check_id(entry_a, "entry_a")
        if entry_b is not None and type(entry_b) is not int and type(entry_b) is not str:
            _check_id(entry_b, "entry_b")
        if entry_a == entry_b:
            raise ValueError(f"match {match_id!r}: an entry cannot play itself")
        if type(score_a) is not int:
            score_a = _exact_score(match_id, "score_a", score_a)
        if type(score_b) is not int:
            score_b = _exact_score(match_id, "score_b", score_b)
        if entry_b is None:
            if winner is not None and winner != entry_a:
                raise ValueError(f"match {match_id!r}: a bye's winner can only be entry_a")
        elif winner is not None and winner != entry_a and winner != entry_b:
            raise ValueError(f"match {match_id!r}: winner {winner!r} did not play in this match")
        if forfeit is not False and forfeit is not True:
            raise ValueError(f"match {match_id!r}: forfeit must be a bool")
        return _new_tuple(
            cls,
            (match_id, round_number, kind, entry_a, entry_b, score_a, score_b, winner, forfeit),
        )

    @property
    def is_bye(self) -> bool:
        """Whether this is a bye (``entry_a`` had no opponent)."""
        return self.entry_b is None


_new_tuple = tuple.__new__
"""Makes a record from its checked fields, without checking them again."""


def entries_from_columns(entry_ids: Sequence[EntryId], names: Sequence[str]) -> list[Entry]:
    """``[Entry(i, n) for i, n in zip(entry_ids, names)]``, for many entries at once: the ids are
    checked in one pass over the column (in C) and the records made without a call per entry.
    When an id is not an ``int`` or a ``str`` they are made one by one, so the fault raises what
    :class:`Entry` raises (for the first one).

    >>> entries_from_columns([1, 2], ["Ann", "Bo"])
    [Entry(entry_id=1, name='Ann'), Entry(entry_id=2, name='Bo')]
    """
    if len(entry_ids) != len(names):
        raise ValueError("entries_from_columns: the columns differ in length")
    if not set(map(type, entry_ids)) <= {int, str}:
        return [Entry(entry_id, name) for entry_id, name in zip(entry_ids, names, strict=True)]
    return list(map(_new_tuple, repeat(Entry), zip(entry_ids, names, strict=True)))


def _exact_score(match_id: MatchId, side: str, value: object) -> Number:
    if not is_exact(value):
        raise ValueError(f"match {match_id!r}: {side} must be an int or a Fraction, not {value!r}")
    return normalise(value)  # type: ignore[arg-type]


OPTIONAL_POINTS = ("margin_threshold", "forfeit_win", "forfeit_loss", "double_forfeit")
"""The :class:`PointsConfig` numbers that may be ``None``."""


@dataclass(frozen=True, slots=True)
class PointsConfig:
    """The match points an event awards (an event setting, published before the event starts).

    - ``win``, ``draw``, ``loss``: per match; ``bye``: for a round without an opponent.
    - Margin bonus: when ``margin_threshold`` is set, a winner whose raw score exceeds the loser's
      by at least ``margin_threshold`` raw points earns ``margin_bonus`` extra match points (e.g.
      ``margin_bonus=1, margin_threshold=100``: +1 for winning by 100 raw points or more). Never for
      a bye, a draw or a forfeit. ``margin_threshold=None`` (the default) means no bonus.
    - Forfeits (see :class:`Result`): ``forfeit_win`` for the side that turned up, ``forfeit_loss``
      for the side that forfeited, ``double_forfeit`` for each side of a double forfeit. ``None``
      (the default) means "as a played match": ``win``, ``loss`` and ``loss`` respectively (read
      the resolved values from ``forfeit_win_points`` and the like). ``forfeit_spread`` (default
      true): whether a forfeit's recorded scores count in points for, points against and spread
      (false: a forfeit adds nothing to them, like a bye). The defaults are the behaviour from
      before these settings existed, and a config with the defaults serialises as it did then.

    >>> PointsConfig(win=2, loss=0).for_win(Fraction(305), Fraction(120))
    2
    >>> PointsConfig(win=2, margin_bonus=1, margin_threshold=150).for_win(305, 120)
    3
    >>> p = PointsConfig(win=2, forfeit_loss=-1)
    >>> p.forfeit_win_points, p.forfeit_loss_points, p.double_forfeit_points
    (2, -1, 0)
    """

    win: Number = 2
    draw: Number = 1
    loss: Number = 0
    bye: Number = 2
    margin_bonus: Number = 0
    margin_threshold: Number | None = None
    forfeit_win: Number | None = None
    forfeit_loss: Number | None = None
    double_forfeit: Number | None = None
    forfeit_spread: bool = True

    def __post_init__(self) -> None:
        for name in ("win", "draw", "loss", "bye", "margin_bonus", *OPTIONAL_POINTS):
            value = getattr(self, name)
            if value is None and name in OPTIONAL_POINTS:
                continue
            if not is_exact(value):
                raise ValueError(f"points {name} must be an int or a Fraction, not {value!r}")
            object.__setattr__(self, name, normalise(value))
        if self.margin_threshold is not None and self.margin_threshold <= 0:
            raise ValueError("points margin_threshold must be positive (or None for no bonus)")
        if self.forfeit_spread is not True and self.forfeit_spread is not False:
            raise ValueError("points forfeit_spread must be a bool")

    @property
    def forfeit_win_points(self) -> Number:
        """Match points for winning by the opponent's forfeit (``forfeit_win``, else ``win``)."""
        return self.win if self.forfeit_win is None else self.forfeit_win

    @property
    def forfeit_loss_points(self) -> Number:
        """Match points for forfeiting (``forfeit_loss``, else ``loss``)."""
        return self.loss if self.forfeit_loss is None else self.forfeit_loss

    @property
    def double_forfeit_points(self) -> Number:
        """Match points for each side of a double forfeit (``double_forfeit``, else ``loss``)."""
        return self.loss if self.double_forfeit is None else self.double_forfeit

    @property
    def whole(self) -> bool:
        """Whether every award (win with or without the bonus, draw, loss, bye, forfeits) is a
        whole number: then every sum of match points is an ``int``.

        >>> PointsConfig().whole, PointsConfig(bye=Fraction(3, 2)).whole
        (True, False)
        """
        awards = (self.win, self.margin_bonus, self.draw, self.loss, self.bye)
        forfeits = (self.forfeit_win_points, self.forfeit_loss_points, self.double_forfeit_points)
        return all(type(x) is int for x in (*awards, *forfeits))

    @property
    def forfeit_defaults(self) -> bool:
        """Whether every forfeit setting is its default (then the JSON omits them)."""
        return (
            self.forfeit_win is None
            and self.forfeit_loss is None
            and self.double_forfeit is None
            and self.forfeit_spread is True
        )

    def scores_count(self, *, forfeit: bool) -> bool:
        """Whether a played match's (``forfeit=False``) or a forfeit's recorded scores count in
        points for, points against and spread (a forfeit's only with ``forfeit_spread``).

        >>> PointsConfig(forfeit_spread=False).scores_count(forfeit=True)
        False
        """
        return self.forfeit_spread or not forfeit

    def for_win(self, own: Number, other: Number, *, forfeit: bool = False) -> Number:
        """Match points for a win scored ``own`` to ``other`` raw points (bonus included); for a
        win by forfeit, :attr:`forfeit_win_points` (never a bonus)."""
        if forfeit:
            return self.forfeit_win_points
        threshold = self.margin_threshold
        if threshold is not None and own - other >= threshold:
            return normalise(self.win + self.margin_bonus)
        return self.win
