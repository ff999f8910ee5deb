package handlers

import (
	"strconv"
	"strings"
)

// contentEncoding picks the encoding to send for an Accept-Encoding
// header: "br" if the client accepts it, else "gzip", else "" for the
// plain bytes. A coding listed with q=0 is refused, and "*" stands for
// every coding not listed by name (RFC 9110, section 12.5.3).
func contentEncoding(accept string) string {
	q := map[string]float64{}
	for part := range strings.SplitSeq(accept, ",") {
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding == "" {
			continue
		}
		weight := 1.0
		for param := range strings.SplitSeq(params, ";") {
			k, v, ok := strings.Cut(param, "=")
			if !ok || !strings.EqualFold(strings.TrimSpace(k), "q") {
				continue
			}
			if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
				weight = f
			}
		}
		q[coding] = weight
	}
	accepts := func(coding string) bool {
		if w, ok := q[coding]; ok {
			return w > 0
		}
		w, ok := q["*"]
		return ok && w > 0
	}
	for _, coding := range []string{"br", "gzip"} {
		if accepts(coding) {
			return coding
		}
	}
	return ""
}
