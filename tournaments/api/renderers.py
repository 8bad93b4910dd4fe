"""The API's JSON renderer: DRF's ``JSONRenderer``, its bytes, written by orjson
(``tournaments.fast_json`` says why and what differs)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson
from rest_framework.renderers import JSONRenderer

from tournaments.fast_json import OPTIONS

_LINE_SEPARATORS = ("\u2028".encode(), "\u2029".encode())


class FastJSONRenderer(JSONRenderer):
    """DRF's ``JSONRenderer``, its bytes, by orjson."""

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        if data is None:
            return b""
        if (
            self.ensure_ascii
            or not self.compact
            or self.get_indent(accepted_media_type or "", renderer_context or {}) is not None
        ):
            return self._drf(data, accepted_media_type, renderer_context)
        encoder = self.encoder_class()
        try:
            # times go to DRF's encoder, which writes UTC as "Z" (orjson: "+00:00")
            text = orjson.dumps(data, default=encoder.default, option=OPTIONS)
        except TypeError:
            return self._drf(data, accepted_media_type, renderer_context)
        if _LINE_SEPARATORS[0] in text or _LINE_SEPARATORS[1] in text:
            # escaped as DRF does: JSON that is also a JavaScript string literal's subset
            text = text.replace(_LINE_SEPARATORS[0], b"\\u2028")
            text = text.replace(_LINE_SEPARATORS[1], b"\\u2029")
        return text

    def _drf(
        self,
        data: Any,
        accepted_media_type: str | None,
        renderer_context: Mapping[str, Any] | None,
    ) -> bytes:
        rendered: bytes = super().render(data, accepted_media_type, renderer_context)
        return rendered
