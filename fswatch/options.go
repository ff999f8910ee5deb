package fswatch

import (
	"log/slog"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// DefaultDebounce is long enough to span the events of one editor save and
// short enough that a reload still feels immediate.
const DefaultDebounce = 300 * time.Millisecond

// Options configures Watch. Time and logging come in here so tests can
// drive the debounce with a fake clock instead of sleeping.
type Options struct {
	// Paths are the files to watch. Neither a file nor its directory
	// need exist yet. Changes name them as given here.
	Paths []string
	// Debounce is the quiet period that ends a burst; zero means
	// DefaultDebounce.
	Debounce time.Duration
	Log      *slog.Logger
	Clock    domain.Clock
}

func (o Options) withDefaults() Options {
	if o.Debounce <= 0 {
		o.Debounce = DefaultDebounce
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Clock == nil {
		o.Clock = domain.SystemClock{}
	}
	return o
}
