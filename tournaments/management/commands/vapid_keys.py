"""``python manage.py vapid_keys``: print a fresh VAPID key pair for Web Push ("my table"
notifies a player's phone when pairings are published), as environment lines to paste into the
server's environment. Nothing is stored: keep the private key as secret as ``SECRET_KEY``, and
keep the pair once players have subscribed (a new pair orphans their subscriptions)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Print a fresh VAPID key pair (SPINNER_VAPID_PUBLIC_KEY, SPINNER_VAPID_PRIVATE_KEY)."

    def handle(self, *args: Any, **options: Any) -> None:
        from tournaments.services import push

        public, private = push.new_vapid_keys()
        self.stdout.write(f"SPINNER_VAPID_PUBLIC_KEY={public}")
        self.stdout.write(f"SPINNER_VAPID_PRIVATE_KEY={private}")
        self.stdout.write("SPINNER_VAPID_SUBJECT=mailto:you@example.org")
