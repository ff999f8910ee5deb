package handlers

import (
	"errors"
	"net/http"
	"testing"
)

func TestNotJSONSaysWhere(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body, want string
	}{
		{"bad-value", `{"a": x}`, "(line 1, column 7)"},
		{"cut-in-object", `{"a":`, "(line 1, column 6)"},
		{"cut-in-string", `{"a": "abc`, "(line 1, column 11)"},
		{"cut-in-literal", `{"a": tr`, "(line 1, column 9)"},
		{"two-values", `1 2`, "(line 1, column 3)"},
		{"third-line", "{\n\"a\": 1,\n}", "(line 3, column 1)"},
		{"crlf", "{\r\n\"a\" 1}", "(line 2, column 5)"},
		{"wide-characters", `["日本語", x]`, "(line 1, column 9)"},
		{"lone-close", `}`, "(line 1, column 1)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := notJSON([]byte(tt.body), "bad_request")
			var ae *apiError
			if !errors.As(err, &ae) || ae.status != http.StatusBadRequest || ae.code != "bad_request" {
				t.Fatalf("got %v, want a 400 bad_request", err)
			}
			if want := "request body is not valid JSON " + tt.want; ae.message != want {
				t.Errorf("got %q, want %q", ae.message, want)
			}
		})
	}
	for _, ok := range []string{``, "  \n", `{}`, `{"a": [1, "x"]}`, `null`} {
		if err := notJSON([]byte(ok), "bad_request"); err != nil {
			t.Errorf("notJSON(%q) = %v, want nil", ok, err)
		}
	}
}
