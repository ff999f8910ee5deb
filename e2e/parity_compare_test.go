//go:build e2e

package e2e

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// canonical re-encodes JSON with every object's keys sorted (arrays keep
// their order) and numbers exactly as written, indented one member a line
// so that two encodings compare byte for byte and diff line by line.
func canonical(t *testing.T, raw []byte) string {
	t.Helper()
	v, err := decodeNumbers(raw)
	if err != nil {
		t.Fatalf("canonical: %v in %s", err, clip(raw))
	}
	return encodeCanonical(t, v)
}

func decodeNumbers(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// encodeCanonical encodes v (maps are written in key order by
// encoding/json) without HTML escaping, so text reads as the server wrote it.
func encodeCanonical(t *testing.T, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatalf("canonical: %v", err)
	}
	return b.String()
}

// masker hides what differs between two runs of the same server without
// saying anything about Switchboard: clock readings, generated file
// names, each side's temporary directory, and (for browsers) pixels.
type masker struct {
	literal map[string]string // exact text -> placeholder, e.g. a temp dir -> <ROOT>
	images  bool              // replace image data by a placeholder
}

var timePatterns = []*regexp.Regexp{
	// ISO 8601, also as Playwright writes it into file names (':' and '.' as '-').
	regexp.MustCompile(`\d{4}-\d{2}-\d{2}T\d{2}[:-]\d{2}[:-]\d{2}(?:[.-]\d+)?Z?`),
	// JavaScript's Date.prototype.toString (server-filesystem's get_file_info).
	regexp.MustCompile(`(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{2} \d{4} \d{2}:\d{2}:\d{2} GMT[+-]\d{4}(?: \([^)]*\))?`),
	// Date.prototype.toLocaleTimeString in en-US (server-everything's resources).
	regexp.MustCompile(`\b\d{1,2}:\d{2}:\d{2}\s?[AP]M\b`),
}

// mask returns the canonical text of raw with m's masks applied.
func (m masker) mask(t *testing.T, raw []byte) string {
	t.Helper()
	v, err := decodeNumbers(raw)
	if err != nil {
		t.Fatalf("mask: %v in %s", err, clip(raw))
	}
	v = m.walk(v)
	return encodeCanonical(t, v)
}

func (m masker) walk(v any) any {
	switch x := v.(type) {
	case map[string]any:
		if m.images && x["type"] == "image" {
			if _, ok := x["data"].(string); ok {
				x["data"] = "<IMAGE>"
			}
		}
		for k, e := range x {
			x[k] = m.walk(e)
		}
		// A text blob that holds a clock reading is shown decoded, masked.
		if b, ok := x["blob"].(string); ok {
			if text, err := base64.StdEncoding.DecodeString(b); err == nil && utf8.Valid(text) {
				if masked := m.walk(string(text)).(string); masked != string(text) {
					x["blob"] = "<base64 of " + masked + ">"
				}
			}
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = m.walk(e)
		}
		return x
	case string:
		for from, to := range m.literal {
			x = strings.ReplaceAll(x, from, to)
		}
		for _, re := range timePatterns {
			x = re.ReplaceAllString(x, "<TIME>")
		}
		return x
	}
	return v
}

// lineDiff is a unified diff of want (the direct call) and got
// (Switchboard) by lines, three lines of context around each change, cut
// after maxChanged changed lines: enough to see the defect, short enough
// to read.
func lineDiff(want, got string) string {
	const context, maxChanged = 3, 24
	w := strings.Split(strings.TrimRight(want, "\n"), "\n")
	g := strings.Split(strings.TrimRight(got, "\n"), "\n")
	ops := diffLines(w, g)
	// Mark which ops are shown: changes and context around them.
	show := make([]bool, len(ops))
	for i, op := range ops {
		if op.kind != ' ' {
			for j := max(0, i-context); j <= min(len(ops)-1, i+context); j++ {
				show[j] = true
			}
		}
	}
	var b strings.Builder
	b.WriteString("--- direct\n+++ switchboard\n")
	changed, gap := 0, true
	for i, op := range ops {
		if !show[i] {
			gap = true
			continue
		}
		if gap {
			fmt.Fprintf(&b, "@@ direct line %d @@\n", op.wLine+1)
			gap = false
		}
		if op.kind != ' ' {
			if changed == maxChanged {
				b.WriteString("… more changes not shown\n")
				return b.String()
			}
			changed++
		}
		l := op.text
		if len(l) > 240 {
			l = l[:240] + "…"
		}
		b.WriteString(string(op.kind) + " " + l + "\n")
	}
	return b.String()
}

// diffOp is one line of a diff: ' ' kept, '-' only in want, '+' only in got.
type diffOp struct {
	kind  byte
	text  string
	wLine int // the line of want it is at or before
}

// diffLines is a longest-common-subsequence diff: quadratic, which is
// fine for a tool or a call result of a few hundred lines.
func diffLines(w, g []string) []diffOp {
	n, m := len(w), len(g)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if w[i] == g[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var ops []diffOp
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && w[i] == g[j]:
			ops = append(ops, diffOp{' ', w[i], i})
			i, j = i+1, j+1
		case j < m && (i == n || lcs[i][j+1] >= lcs[i+1][j]):
			ops = append(ops, diffOp{'+', g[j], i})
			j++
		default:
			ops = append(ops, diffOp{'-', w[i], i})
			i++
		}
	}
	return ops
}

// firstLine is the first line of s, for one-line failure summaries.
func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// compareTools reports every way Switchboard's list of a server's tools
// differs from the list the server sent: names and order first, then each
// tool's canonical JSON. Only the fields Switchboard adds by design
// (riskTier, and the policy in effect with whether the tool is annotated)
// are left out of its side.
func compareTools(t *testing.T, server string, direct []json.RawMessage, sb []map[string]json.RawMessage) {
	t.Helper()
	var dNames, sNames []string
	for _, raw := range direct {
		var n struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(raw, &n)
		dNames = append(dNames, n.Name)
	}
	for _, tl := range sb {
		var n string
		_ = json.Unmarshal(tl["name"], &n)
		sNames = append(sNames, n)
	}
	if strings.Join(dNames, ",") != strings.Join(sNames, ",") {
		t.Errorf("%s tool names: switchboard lists %v, the server sent %v", server, sNames, dNames)
		return
	}
	differ := 0
	for i := range direct {
		tl := sb[i]
		delete(tl, "riskTier")
		delete(tl, "policy")
		delete(tl, "annotated")
		raw, err := json.Marshal(tl)
		if err != nil {
			t.Fatal(err)
		}
		want, got := canonical(t, direct[i]), canonical(t, raw)
		if want != got {
			differ++
			t.Errorf("%s tool %s differs from what the server sent:\n%s", server, dNames[i], lineDiff(want, got))
		}
	}
	if differ > 0 {
		t.Logf("%s: %d of %d tools differ", server, differ, len(direct))
	}
}
