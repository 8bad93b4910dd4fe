"""``{% load player_records %}``: ``user|may_manage:player``, whether this user may open and
change the player's record (``services.players.may_manage_player``: its owner, superusers), so
that pages link the director's player page only for them."""

from __future__ import annotations

from django import template
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from tournaments.models import Player
from tournaments.services.players import may_manage_player

register = template.Library()


@register.filter
def may_manage(user: AbstractBaseUser | AnonymousUser, player: Player) -> bool:
    return may_manage_player(user, player)
