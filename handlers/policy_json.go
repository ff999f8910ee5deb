package handlers

import "github.com/switchboard-mcp/switchboard/domain"

// withPolicies adds to each tool of out (listed in the order of tools) the
// policy in effect and whether it is annotated, and the server's ask-all.
func withPolicies(out CapabilitiesDTO, tools []domain.Tool, sp domain.ServerPolicies) CapabilitiesDTO {
	askAll := sp.AskAll
	out.AskAll = &askAll
	for i, t := range tools {
		if i >= len(out.Tools) {
			break
		}
		annotated := domain.Annotated(t)
		out.Tools[i].Policy = string(sp.Effective(t))
		out.Tools[i].Annotated = &annotated
	}
	return out
}
