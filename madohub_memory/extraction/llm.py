"""Opt-in extractor over an OpenAI-compatible chat-completions endpoint.

A local Ollama, LM Studio, vLLM or llama.cpp server, or a hosted API. The caller passes
plain values (endpoint, model, API key, timeout); the API key is read from an environment
variable by the caller and never logged. Failures, as the user meets them:

* timeout, connection refused, HTTP 5xx: retried with exponential backoff, then the
  extraction is postponed (:class:`~madohub_memory.extraction.limits.ExtractionPostponed`)
  and the turns stay pending for the next pass;
* HTTP 429: waits ``Retry-After`` (seconds or an HTTP date) when it is short, pauses the
  budget until then when it is long, else backs off like a 5xx;
* HTTP 400/401/403/404: not retried; postponed with a sentence that names the fix;
* a reply that is not the expected JSON: asked once more, then that span goes to the
  offline extractor; invalid items are dropped and logged (see :mod:`.llm_prompt`).
"""

from __future__ import annotations

import email.utils
import time
from datetime import UTC
from typing import Any
from urllib.parse import urlsplit

import httpx

from madohub_memory.extraction.limits import ExtractionPostponed, RetryableError
from madohub_memory.extraction.model_backend import ModelExtractor

RETRY_STATUSES = {408, 409, 425, 429, 500, 502, 503, 504}
_ADVICE = {
    400: "the endpoint rejected the request; check the model name",
    401: "the API key was refused; check the environment variable named in extraction.llm.api_key_env",
    403: "the API key may not use this model",
    404: "no chat-completions endpoint at this URL (it usually ends in /v1) or no such model",
}


def retry_after_seconds(value: str | None, now: float | None = None) -> float | None:
    """Seconds from a ``Retry-After`` header (delta-seconds or an HTTP date), else None."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        moment = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return max(0.0, moment.timestamp() - (time.time() if now is None else now))


def endpoint_host(base_url: str) -> str:
    """``host[:port]`` of an endpoint URL, for the dashboard and messages."""
    parts = urlsplit(base_url)
    return parts.netloc.rsplit("@", 1)[-1] or base_url


class LLMExtractor(ModelExtractor):
    """Candidates from a chat-completions model, validated item by item."""

    name = "llm"

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        timeout: float = 120.0,
        transport: httpx.BaseTransport | None = None,
        **options: Any,
    ) -> None:
        super().__init__(**options)
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.api_key = api_key
        self.timeout = timeout
        self._transport = transport
        self.where = f"the LLM endpoint {endpoint_host(self.base_url)}"

    def _complete(self, system: str, user: str) -> tuple[str, int | None]:
        payload = {
            "model": self.model,
            "temperature": 0,
            "response_format": {"type": "json_object"},
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
        }
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        timeout = httpx.Timeout(self.timeout, connect=min(5.0, self.timeout))
        try:
            with httpx.Client(timeout=timeout, transport=self._transport) as client:
                response = client.post(f"{self.base_url}/chat/completions", json=payload, headers=headers)
        except httpx.TimeoutException:
            raise RetryableError(f"no reply within {self.timeout:g} s") from None
        except httpx.HTTPError as exc:
            raise RetryableError(f"cannot reach it: {type(exc).__name__}") from None
        status = response.status_code
        if status in RETRY_STATUSES:
            raise RetryableError(f"HTTP {status}", retry_after_seconds(response.headers.get("Retry-After")))
        if status >= 400:
            advice = _ADVICE.get(status, "the endpoint refused the request")
            raise ExtractionPostponed(
                "{where} answered HTTP {status}: {advice}.", where=self.where, status=status, advice=advice,
            )
        try:
            body = response.json()
            content = body["choices"][0]["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError):
            return "", _usage(None)  # unreadable: parse_items rejects it and the reply is asked again
        usage = body.get("usage") if isinstance(body, dict) else None
        return (content if isinstance(content, str) else ""), _usage(usage)


def _usage(usage: Any) -> int | None:
    if not isinstance(usage, dict):
        return None
    total = usage.get("total_tokens")
    if isinstance(total, int) and not isinstance(total, bool):
        return total
    parts = [usage.get("prompt_tokens"), usage.get("completion_tokens")]
    return sum(p for p in parts if isinstance(p, int)) or None
