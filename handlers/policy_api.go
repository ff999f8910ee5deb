package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
)

// policyAPI changes what Switchboard does with calls to a server's tools:
// allow, ask (AI clients' calls wait for a person), deny or hidden (AI
// clients do not see the tool).
type policyAPI struct {
	policies *domain.Policies
	fleet    *domain.Fleet
	scope    domain.Scope
	// gateway is told of every change, so a hidden tool leaves what AI
	// clients see at once; nil when there is no gateway.
	gateway MCPGateway
}

// ToolPolicyBody is the body of PUT .../tools/{tool}/policy: allow, ask,
// deny or hidden, or "default" to drop the choice.
type ToolPolicyBody struct {
	Policy string `json:"policy"`
}

// ServerPolicyBody is the body of PUT .../policy.
type ServerPolicyBody struct {
	AskAll *bool `json:"askAll"`
}

// ToolPolicyDTO is a tool's policy after a change: the one in effect and
// whether a person chose it (false: the default applies).
type ToolPolicyDTO struct {
	Server string `json:"server"`
	Tool   string `json:"tool"`
	Policy string `json:"policy"`
	Chosen bool   `json:"chosen"`
}

// ServerPolicyDTO is a server's ask-all setting after a change.
type ServerPolicyDTO struct {
	Server string `json:"server"`
	AskAll bool   `json:"askAll"`
}

// policyDefault in a body drops a person's choice for a tool.
const policyDefault = "default"

func (a *policyAPI) setTool(c echo.Context) error {
	server, err := serverName(c)
	if err != nil {
		return err
	}
	tool, err := invocationToolName(c)
	if err != nil {
		return err
	}
	if _, err := a.fleet.Status(server); err != nil {
		return err
	}
	var body ToolPolicyBody
	empty, err := decodeBody(c, &body)
	if err != nil {
		return err
	}
	p := domain.Policy(body.Policy)
	if body.Policy == policyDefault {
		p = ""
	}
	if empty || (p != "" && !p.Valid()) {
		return &apiError{http.StatusBadRequest, "bad_request", `the body must be {"policy": "allow" | "ask" | "deny" | "hidden" | "default"}`}
	}
	ctx := c.Request().Context()
	if err := a.policies.SetTool(ctx, a.scope, server, tool, p); err != nil {
		return err
	}
	refreshGateway(a.gateway)
	dto, err := a.toolPolicy(c, server, tool)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, dto)
}

// toolPolicy reads back the policy in effect for one tool. A tool the
// server does not list now is judged as one without annotations.
func (a *policyAPI) toolPolicy(c echo.Context, server, name string) (ToolPolicyDTO, error) {
	sp, err := a.policies.Server(c.Request().Context(), a.scope, server)
	if err != nil {
		return ToolPolicyDTO{}, err
	}
	tool := domain.Tool{Name: name}
	if caps, err := a.fleet.Capabilities(server); err == nil {
		for _, t := range caps.Tools {
			if t.Name == name {
				tool = t
			}
		}
	}
	_, chosen := sp.Tools[name]
	return ToolPolicyDTO{Server: server, Tool: name, Policy: string(sp.Effective(tool)), Chosen: chosen}, nil
}

func (a *policyAPI) setServer(c echo.Context) error {
	server, err := serverName(c)
	if err != nil {
		return err
	}
	if _, err := a.fleet.Status(server); err != nil {
		return err
	}
	var body ServerPolicyBody
	empty, err := decodeBody(c, &body)
	if err != nil {
		return err
	}
	if empty || body.AskAll == nil {
		return &apiError{http.StatusBadRequest, "bad_request", `the body must be {"askAll": true | false}`}
	}
	if err := a.policies.SetAskAll(c.Request().Context(), a.scope, server, *body.AskAll); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, ServerPolicyDTO{Server: server, AskAll: *body.AskAll})
}
