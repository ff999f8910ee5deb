package mcpclient_test

import (
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpclient"
)

func TestCallToolEverything(t *testing.T) {
	t.Parallel()
	s := connect(t, mcpclient.New(mcpclient.Options{}), everythingStdio(t), nil)

	img := find(t, call(t, s, "get-tiny-image", `{}`, nil), "image")
	if img["mimeType"] != "image/png" || img["data"] == "" {
		t.Errorf("image = %v, want PNG data", img)
	}

	for _, kind := range []string{"Text", "Blob"} {
		r := call(t, s, "get-resource-reference", `{"resourceType":"`+kind+`","resourceId":2}`, nil)
		res, _ := find(t, r, "resource")["resource"].(map[string]any)
		field := strings.ToLower(kind)
		if res["uri"] == nil || res[field] == nil {
			t.Errorf("%s resource = %v, want a uri and %s", kind, res, field)
		}
	}

	var log progressLog
	r := call(t, s, "trigger-long-running-operation", `{"duration":0.02,"steps":3}`, log.add)
	if !strings.Contains(r.Content[0]["text"].(string), "completed") {
		t.Errorf("result %v, want the operation completed", r.Content)
	}
	got := log.all()
	if len(got) < 2 {
		t.Fatalf("got %d progress callbacks, want at least 2", len(got))
	}
	if last := got[len(got)-1]; last != (domain.Progress{Progress: 3, Total: 3}) {
		t.Errorf("last progress = %+v, want 3 of 3", last)
	}
}
