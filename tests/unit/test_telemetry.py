"""FastAPI's OpenTelemetry instrumentation is on only where OpenTelemetry is configured."""

from __future__ import annotations

from commands.web.app import telemetry


def test_telemetry_is_left_on_where_opentelemetry_is_configured() -> None:
    assert telemetry({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"}) == {}
    assert telemetry({"OTEL_SERVICE_NAME": "tledger", "HOME": "/root"}) == {}


def test_telemetry_is_off_without_opentelemetry() -> None:
    off = {"tracing": False, "metrics": False, "logs": False}
    assert telemetry({}) == off
    assert telemetry({"HOME": "/root", "OTELLO": "a game"}) == off
