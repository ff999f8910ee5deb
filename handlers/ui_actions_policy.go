package handlers

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// policiesOf is the policy service the invocation service checks calls
// against, or nil when there is none.
func policiesOf(opts Options) *domain.Policies {
	if opts.Invocations == nil {
		return nil
	}
	return opts.Invocations.Policies()
}

// ToolPolicyPath fills PathUIToolPolicy for one server and tool, both
// escaped.
func ToolPolicyPath(server, tool string) string {
	return strings.Replace(ServerPath(PathUIToolPolicy, server), ":"+toolParam, url.PathEscape(tool), 1)
}

// setToolPolicy is a tool's policy select in the drawer: it stores the
// choice and answers with the control as now stored.
func (u *drawerUI) setToolPolicy(c echo.Context) error {
	server, err := serverName(c)
	if err != nil {
		return err
	}
	name, err := invocationToolName(c)
	if err != nil {
		return err
	}
	value := c.FormValue("policy")
	p := domain.Policy(value)
	if value == views.PolicyDefault {
		p = ""
	}
	if p != "" && !p.Valid() {
		return &apiError{http.StatusBadRequest, "bad_request", "policy must be default, allow, ask, deny or hidden"}
	}
	if _, err := u.fleet.Status(server); err != nil {
		return err
	}
	ctx := c.Request().Context()
	if err := u.policies.SetTool(ctx, u.scope, server, name, p); err != nil {
		return err
	}
	refreshGateway(u.gateway)
	sp, err := u.policies.Server(ctx, u.scope, server)
	if err != nil {
		return err
	}
	tool := domain.Tool{Name: name}
	if caps, err := u.fleet.Capabilities(server); err == nil {
		for _, t := range caps.Tools {
			if t.Name == name {
				tool = t
			}
		}
	}
	return u.render(c, http.StatusOK, views.ToolPolicySelect(views.NewToolPolicyProps(server, tool, sp, ToolPolicyPath(server, name))))
}

// addPolicies gives each tool of the drawer its policy control.
func (u *drawerUI) addPolicies(p *views.DrawerProps, server string, tools []domain.Tool) error {
	if u.policies == nil || len(p.Caps.Tools) == 0 {
		return nil
	}
	// The drawer is built outside any one request's lifetime too (the
	// live part after a reconnect), and the read is local and short.
	sp, err := u.policies.Server(context.Background(), u.scope, server)
	if err != nil {
		return err
	}
	views.ApplyToolPolicies(&p.Caps, server, tools, sp, func(tool string) string { return ToolPolicyPath(server, tool) },
		ServerPath(PathUIServerPolicy, server))
	return nil
}

// setAskAll is the drawer's "ask before every tool" switch: it stores the
// choice and answers with the capability section, whose tools' policies
// follow it.
func (u *drawerUI) setAskAll(c echo.Context) error {
	server, err := serverName(c)
	if err != nil {
		return err
	}
	if _, err := u.fleet.Status(server); err != nil {
		return err
	}
	on := c.FormValue("askAll") == "true"
	if err := u.policies.SetAskAll(c.Request().Context(), u.scope, server, on); err != nil {
		return err
	}
	p, err := u.props(server)
	if err != nil {
		return err
	}
	return u.render(c, http.StatusOK, views.DrawerCaps(p.Caps, false))
}
