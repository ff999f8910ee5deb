package handlers_test

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/handlers"
)

// sseFrame is one event or comment as a browser's EventSource parses it.
type sseFrame struct {
	Event, ID, Data, Comment string
	Raw                      string // the lines as sent, joined by "\n"
}

// sseStream reads frames in a goroutine that hands them over one at a
// time: while the test does not take a frame, the stream is not read.
type sseStream struct {
	header http.Header
	frames chan sseFrame
	cancel context.CancelFunc
}

func (f *fixture) openEvents(t *testing.T) *sseStream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.srv.URL+handlers.PathEvents, nil)
	if err != nil {
		t.Fatalf("new request: %v", err)
	}
	resp, err := f.srv.Client().Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", handlers.PathEvents, err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		t.Fatalf("GET %s: status %d, want 200", handlers.PathEvents, resp.StatusCode)
	}
	s := &sseStream{header: resp.Header, frames: make(chan sseFrame), cancel: cancel}
	go func() {
		defer close(s.frames)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 64<<10), 4<<20)
		var fr sseFrame
		var raw []string
		for sc.Scan() {
			line := sc.Text()
			if line == "" {
				if raw == nil {
					continue
				}
				fr.Raw = strings.Join(raw, "\n")
				select {
				case s.frames <- fr:
				case <-ctx.Done():
					return
				}
				fr, raw = sseFrame{}, nil
				continue
			}
			raw = append(raw, line)
			field, value, _ := strings.Cut(line, ":")
			value = strings.TrimPrefix(value, " ")
			switch field {
			case "":
				fr.Comment = value
			case "event":
				fr.Event = value
			case "id":
				fr.ID = value
			case "data":
				if fr.Data != "" {
					fr.Data += "\n"
				}
				fr.Data += value
			}
		}
	}()
	return s
}

// next returns the next frame, failing if none comes or the stream ends.
func (s *sseStream) next(t *testing.T) sseFrame {
	t.Helper()
	select {
	case fr, ok := <-s.frames:
		if !ok {
			t.Fatalf("event stream ended; want another frame")
		}
		return fr
	case <-time.After(patience):
		t.Fatalf("no event frame within %v", patience)
	}
	return sseFrame{}
}

// until returns the first frame satisfying ok, and every frame read.
func (s *sseStream) until(t *testing.T, want string, ok func(sseFrame) bool) (sseFrame, []sseFrame) {
	t.Helper()
	deadline := time.After(patience)
	var seen []sseFrame
	for {
		select {
		case fr, open := <-s.frames:
			if !open {
				t.Fatalf("event stream ended before %s; read %d frames", want, len(seen))
			}
			seen = append(seen, fr)
			if ok(fr) {
				return fr, seen
			}
		case <-deadline:
			t.Fatalf("no frame with %s within %v; read %d frames", want, patience, len(seen))
		}
	}
}

// waitEnded fails unless the server ends the stream.
func (s *sseStream) waitEnded(t *testing.T) {
	t.Helper()
	deadline := time.After(patience)
	for {
		select {
		case _, open := <-s.frames:
			if !open {
				return
			}
		case <-deadline:
			t.Fatalf("event stream still open after %v", patience)
		}
	}
}
