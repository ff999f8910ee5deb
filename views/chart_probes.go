package views

import (
	"context"

	"github.com/switchboard-mcp/switchboard/domain"
)

// ProbeSource returns a server's recent probe samples, oldest first
// (domain.History.RecentProbes): an in-memory read, cheap enough for
// every chip's tooltip.
type ProbeSource func(server string) []domain.ProbeSample

type probeSourceKey struct{}

// WithProbeSource returns ctx carrying src, so every tooltip rendered with
// it draws its server's last probes. Chips are built in many places from a
// status snapshot alone; the context reaches them all without each
// constructor taking the history.
func WithProbeSource(ctx context.Context, src ProbeSource) context.Context {
	if src == nil {
		return ctx
	}
	return context.WithValue(ctx, probeSourceKey{}, src)
}

// tooltipSpark is the tooltip's sparkline for server, empty without a
// probe source.
func tooltipSpark(ctx context.Context, server string) TooltipSparkProps {
	src, _ := ctx.Value(probeSourceKey{}).(ProbeSource)
	if src == nil || server == "" {
		return TooltipSparkProps{}
	}
	return NewTooltipSparkProps(src(server))
}
