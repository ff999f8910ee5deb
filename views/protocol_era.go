package views

// firstStatelessRevision is the MCP revision that dropped the initialize
// handshake and its session. Revisions are dates, so they sort as text.
const firstStatelessRevision = "2026-07-28"

// protocolEraID names, for people, how a server's connection works at the
// negotiated protocol version: each request on its own (2026-07-28 and
// later) or inside a session opened with a handshake. Empty before a
// version was negotiated.
func protocolEraID(version string) string {
	switch {
	case version == "":
		return ""
	case version >= firstStatelessRevision:
		return "DrawerEraStateless"
	default:
		return "DrawerEraSession"
	}
}
