package handlers

import (
	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// demoNotice is the demo notice as it stands now. started is how the
// process began; a demo that began for want of a settings file ends when
// the reloader finds one, while one forced by --demo (no reloader) lasts.
func demoNotice(started views.DemoProps, config *domain.Reloader, oob bool) views.DemoProps {
	p := started
	p.Active = started.Active && (config == nil || config.State().Demo)
	p.OOB = oob
	return p
}
