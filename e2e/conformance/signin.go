package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"time"
)

// browse is the person's browser on an authorization URL: it follows every
// redirect (the suite's authorization servers answer /authorize with one
// straight back to the redirect URI) and must end on Switchboard's
// callback page with 200. It never carries Switchboard's access token.
func browse(ctx context.Context, authorizationURL string) error {
	jar, err := cookiejar.New(nil)
	if err != nil {
		return err
	}
	browser := &http.Client{Jar: jar, Timeout: 20 * time.Second}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authorizationURL, nil)
	if err != nil {
		return fmt.Errorf("authorization URL %q: %w", authorizationURL, err)
	}
	req.Header.Set("Accept", "text/html")
	resp, err := browser.Do(req)
	if err != nil {
		return fmt.Errorf("browser: %w", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	landed := resp.Request.URL
	if resp.StatusCode != http.StatusOK || !strings.HasSuffix(landed.Path, "/oauth/callback") {
		return fmt.Errorf("browser ended on %s with %d: %s", landed.Redacted(), resp.StatusCode, pageText(body))
	}
	return nil
}

// pageText is an HTML page's text, roughly: enough to see a callback
// page's error in a log.
func pageText(b []byte) string {
	var out strings.Builder
	in := false
	for _, r := range string(b) {
		switch {
		case r == '<':
			in = true
		case r == '>':
			in = false
			out.WriteByte(' ')
		case !in:
			out.WriteRune(r)
		}
	}
	s := strings.Join(strings.Fields(out.String()), " ")
	if len(s) > 400 {
		s = s[:400] + "…"
	}
	return s
}
