package views_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

func gatewayCatalogue() *domain.Catalogue {
	long := strings.Repeat("x", 60)
	alpha := domain.CatalogueServer{Status: domain.Status{ServerName: "alpha"}, Caps: domain.Capabilities{
		Tools:     []domain.Tool{{Name: "echo"}, {Name: "get.file"}, {Name: long}},
		Prompts:   []domain.Prompt{{Name: "greet"}},
		Resources: []domain.Resource{{URI: "mem://shared"}, {URI: "mem://alpha"}},
	}}
	beta := domain.CatalogueServer{Status: domain.Status{ServerName: "beta"}, Caps: domain.Capabilities{
		Tools:     []domain.Tool{{Name: "echo"}},
		Resources: []domain.Resource{{URI: "mem://shared"}},
	}}
	return domain.NewCatalogue([]domain.CatalogueServer{alpha, beta})
}

func TestNewGatewayNamesProps(t *testing.T) {
	cat := gatewayCatalogue()
	tests := []struct {
		name   string
		server string
		cat    *domain.Catalogue
		want   string
	}{
		{"no-gateway-shows-nothing", "alpha", nil, "{false false   [] []}"},
		{"plain-names-one-line", "beta", cat, "{true true beta__ beta__echo [] [{mem://shared alpha false}]}"},
		{"renamed-only-listed", "alpha", cat,
			fmt.Sprintf("{true true alpha__ alpha__echo [{tool get.file alpha__get_file} {tool %s %s}] [{mem://shared alpha true}]}",
				strings.Repeat("x", 60), mustTool(t, cat, "alpha", strings.Repeat("x", 60)))},
		{"not-exposed", "gamma", cat, "{true false gamma__  [] []}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := views.NewGatewayNamesProps(tt.server, tt.cat)
			got := fmt.Sprintf("{%v %v %s %s %v %v}", p.Shown, p.Exposed, p.Prefix, p.Example, p.Renamed, p.Clashes)
			if p.Renamed == nil {
				got = strings.Replace(got, "<nil>", "[]", 1)
			}
			if got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func mustTool(t *testing.T, cat *domain.Catalogue, server, tool string) string {
	t.Helper()
	for _, et := range cat.Tools {
		if et.Server == server && et.Tool.Name == tool {
			return et.Name
		}
	}
	t.Fatalf("no tool %s/%s", server, tool)
	return ""
}

func TestDrawerGatewayNamesRender(t *testing.T) {
	p := views.NewGatewayNamesProps("alpha", gatewayCatalogue())
	for _, lang := range []string{"en", "pt-BR", "zh-Hans"} {
		t.Run(lang, func(t *testing.T) {
			doc := renderDrawerPart(t, lang, views.DrawerGatewayNames(p))
			sec := doc.Find(`[data-testid="drawer-gateway-names"]`)
			if sec.Length() != 1 || sec.AttrOr("aria-labelledby", "") == "" || sec.AttrOr("data-exposed", "") != "true" {
				t.Fatalf("section: got %d, want one labelled section", sec.Length())
			}
			if rule := doc.Find(`[data-testid="gateway-prefix-rule"]`).Text(); !strings.Contains(rule, "alpha__") || !strings.Contains(rule, "alpha__echo") {
				t.Errorf("prefix rule %q: want the prefix and an example", rule)
			}
			if got := doc.Find(`[data-testid="gateway-exposed-name"]`).First().Text(); got != "alpha__get_file" {
				t.Errorf("first renamed: got %q, want alpha__get_file", got)
			}
			if got := doc.Find(`[data-testid="gateway-clash"][data-mine="true"] code`).Text(); got != "mem://shared" {
				t.Errorf("clash: got %q", got)
			}
		})
	}
	if doc := renderDrawerPart(t, "en", views.DrawerGatewayNames(views.GatewayNamesProps{})); doc.Find(`[data-testid="drawer-gateway-names"]`).Length() != 0 {
		t.Error("without a gateway: got the section, want nothing")
	}
	doc := renderDrawerPart(t, "en", views.DrawerGatewayNames(views.NewGatewayNamesProps("gamma", gatewayCatalogue())))
	if doc.Find(`[data-testid="gateway-not-exposed"]`).Length() != 1 {
		t.Error("a server not on /mcp: want the not-exposed note")
	}
}
