// Package oauth holds the protocol side of signing in to a remote MCP server
// (the MCP authorization spec: OAuth 2.1 with RFC 9728, RFC 8414, RFC 7591,
// RFC 8707, RFC 9207 and PKCE). Its functions keep no state beyond their
// arguments, so the manager that owns tokens and flows can call them from
// anywhere and tests can exercise each step on its own.
package oauth
