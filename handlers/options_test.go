package handlers_test

import (
	"strings"
	"testing"
)

// Echo's own loggers default to stdout, which the CLI owns; New must route
// both into the slog logger.
func TestEchoLoggersGoToSlog(t *testing.T) {
	f := newFixture(t)
	f.echo.Logger.Error("echo internal error")
	f.echo.StdLogger.Print("http: TLS handshake error from 127.0.0.1:5555: EOF")

	got := f.logs.String()
	for _, want := range []string{"echo internal error", "TLS handshake error"} {
		if !strings.Contains(got, want) {
			t.Errorf("slog output lacks %q; got %s", want, got)
		}
	}
}
