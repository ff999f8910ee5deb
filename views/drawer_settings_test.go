package views_test

import (
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/views"
)

func TestDrawerSettingsForm(t *testing.T) {
	st := drawerConnected("s")
	p := views.NewDrawerSettingsProps(st, "/s").WithKeepAliveError(false, "9999", views.Message{ID: "SettingKeepAliveRange", Data: views.KeepAliveRangeData()})
	doc := renderDrawerPart(t, "zh-Hans", views.DrawerSettings(p))
	in := doc.Find(`[data-testid="setting-keepalive"]`)
	if v, _ := in.Attr("value"); v != "9999" {
		t.Errorf("got value %q, want what was typed", v)
	}
	if inv, _ := in.Attr("aria-invalid"); inv != "true" {
		t.Errorf("got aria-invalid %q, want true", inv)
	}
	id, _ := in.Attr("id")
	if doc.Find(`label[for="`+id+`"]`).Length() != 1 {
		t.Errorf("got no label for the keep-alive field")
	}
	if got := doc.Find(`[data-testid="setting-keepalive-error"]`).Text(); got != "请输入 0 以关闭检查，或输入 5 到 3600 之间的数字。" {
		t.Errorf("got error %q, want the Chinese range message", got)
	}
	if lo, _ := in.Attr("min"); lo != "0" {
		t.Errorf("got min %q, want 0 (off)", lo)
	}
	if hi, _ := in.Attr("max"); hi != "3600" {
		t.Errorf("got max %q, want 3600", hi)
	}
	if got := doc.Find(`#` + p.KeepHelpID).Text(); !strings.Contains(got, "5 到 3600") {
		t.Errorf("got help %q, want the range 5 to 3600", got)
	}
	if _, checked := doc.Find(`[data-testid="setting-auto-reconnect"]`).Attr("checked"); checked {
		t.Errorf("got auto-reconnect checked, want what was submitted (off)")
	}
}

func TestConfirmRemove(t *testing.T) {
	doc := renderDrawerPart(t, "en", views.ConfirmRemove(views.NewConfirmProps("files", "/home/u/mcp.json", "/rm")))
	d := doc.Find(`[data-testid="confirm-dialog"]`)
	if role, _ := d.Attr("role"); role != "alertdialog" {
		t.Errorf("got role %q, want alertdialog", role)
	}
	for _, attr := range []string{"aria-labelledby", "aria-describedby"} {
		id, _ := d.Attr(attr)
		if id == "" || doc.Find("#"+id).Length() != 1 {
			t.Errorf("%s %q names no element", attr, id)
		}
	}
	if got := doc.Find("#" + drawerAttr(d, "aria-describedby")).Text(); !strings.Contains(got, "/home/u/mcp.json") {
		t.Errorf("got description %q, want the settings file named", got)
	}
	if u, _ := doc.Find(`[data-testid="confirm-yes"]`).Attr("hx-post"); u != "/rm" {
		t.Errorf("got confirm-yes posting to %q, want /rm", u)
	}
	if doc.Find(`[data-testid="confirm-no"]`).Length() != 1 {
		t.Errorf("got no cancel button")
	}
}
