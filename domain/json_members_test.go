package domain_test

import (
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

func TestJSONMembers(t *testing.T) {
	t.Parallel()
	obj := ` { "a" : "x\\" , "b\"":[1,{"c":"]}"}], "d":-1.5e3,"e":true , "f":null,"g":{}, "a2":"\\\"}", "a":2} `
	want := map[string]string{"a": `2`, `b"`: `[1,{"c":"]}"}]`, "d": "-1.5e3", "e": "true", "f": "null",
		"g": "{}", "a2": `"\\\"}"`}
	got := domain.JSONMembers([]byte(obj))
	if len(got) != len(want) {
		t.Fatalf("got %d members %q, want %d", len(got), got, len(want))
	}
	for k, v := range want {
		if string(got[k]) != v {
			t.Errorf("member %q = %q, want %q", k, got[k], v)
		}
	}
	if got := domain.JSONMembers([]byte(`{}`)); got == nil || len(got) != 0 {
		t.Errorf("empty object: got %q, want no members", got)
	}
	if got := domain.JSONMembers([]byte(`[1]`)); got != nil {
		t.Errorf("array: got %q, want nil", got)
	}
}

func TestJSONElements(t *testing.T) {
	t.Parallel()
	got := domain.JSONElements([]byte(` [ 1 , "a,]" ,{"b":[2,3]},[ ], null ] `))
	want := []string{`1`, `"a,]"`, `{"b":[2,3]}`, `[ ]`, `null`}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if string(got[i]) != want[i] {
			t.Errorf("element %d = %q, want %q", i, got[i], want[i])
		}
	}
	if got := domain.JSONElements([]byte(`[]`)); got == nil || len(got) != 0 {
		t.Errorf("empty array: got %q, want no elements", got)
	}
	if got := domain.JSONElements([]byte(`{}`)); got != nil {
		t.Errorf("object: got %q, want nil", got)
	}
}
