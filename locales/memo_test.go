package locales

import (
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/BurntSushi/toml"
)

// allIDs lists every message id of the embedded files.
func allIDs(t *testing.T) []string {
	t.Helper()
	names, err := fs.Glob(files, "*.toml")
	if err != nil || len(names) == 0 {
		t.Fatalf("found %v (%v)", names, err)
	}
	seen := map[string]bool{}
	for _, n := range names {
		data, err := files.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := toml.Unmarshal(data, &m); err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		for id := range m {
			seen[id] = true
		}
	}
	ids := make([]string, 0, len(seen))
	for id := range seen {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// TestMemoizedTextsMatchTranslations: for every message in every
// language, the text T remembers is the one go-i18n gives, the first time
// and every time after, whatever single value fills it.
func TestMemoizedTextsMatchTranslations(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	datas := []map[string]any{nil, {"Count": 0}, {"Count": 1}, {"Count": int64(2)}, {"Count": 7},
		{"Name": "a<b & \"c\""}, {"MS": "1.2"}, {"Category": "exited"}, {"Seconds": int64(30)}, {"Code": 3}}
	for _, tag := range Supported {
		l := c.Localizer(tag.String())
		for _, id := range allIDs(t) {
			for _, data := range datas {
				want, _ := l.translate(id, data)
				for round := range 2 {
					if got := l.T(id, data); got != want {
						t.Errorf("%s %s %v round %d: got %q, want %q", tag, id, data, round, got, want)
					}
				}
			}
		}
	}
}

// TestMemoKeys: only texts fully decided by the id and one short value
// are remembered, and a whole number is the same value whatever its type.
func TestMemoKeys(t *testing.T) {
	long := strings.Repeat("x", memoValueLimit+1)
	tests := []struct {
		name string
		data map[string]any
		ok   bool
	}{
		{"no-data", nil, true},
		{"count", map[string]any{"Count": 3}, true},
		{"count-int64", map[string]any{"Count": int64(3)}, true},
		{"short-text", map[string]any{"Name": "github"}, true},
		{"long-text-translated-every-time", map[string]any{"Error": long}, false},
		{"two-values-translated-every-time", map[string]any{"Attempt": 1, "Max": 5}, false},
		{"float-translated-every-time", map[string]any{"MS": 1.5}, false},
		{"empty-map-translated-every-time", map[string]any{}, false},
		{"unnamed-value-translated-every-time", map[string]any{"": 1}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, ok := memoKeyOf("Id", tt.data); ok != tt.ok {
				t.Errorf("memoized: got %v, want %v", ok, tt.ok)
			}
		})
	}
	a, _ := memoKeyOf("ToolCount", map[string]any{"Count": 3})
	b, _ := memoKeyOf("ToolCount", map[string]any{"Count": int64(3)})
	if a != b {
		t.Errorf("int and int64 counts: keys %v and %v differ", a, b)
	}
	s, _ := memoKeyOf("X", map[string]any{"V": "3"})
	n, _ := memoKeyOf("X", map[string]any{"V": 3})
	if s == n {
		t.Errorf("text %q and number 3 share a key", "3")
	}
}

// TestMemoIsBounded: a stream of ever new values never grows the memo
// past its limit, and texts past it are still right.
func TestMemoIsBounded(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	l := c.Localizer("en")
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range memoLimit {
				name := fmt.Sprintf("server-%d-%d", w, i)
				if got, want := l.T("OpenDetailsFor", map[string]any{"Name": name}), "Details for "+name; got != want {
					t.Errorf("got %q, want %q", got, want)
					return
				}
			}
		})
	}
	wg.Wait()
	l.memo.mu.RLock()
	defer l.memo.mu.RUnlock()
	if n := len(l.memo.plain) + len(l.memo.texts); n > memoLimit {
		t.Errorf("memo holds %d texts, want at most %d", n, memoLimit)
	}
}
