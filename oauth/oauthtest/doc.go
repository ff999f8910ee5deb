// Package oauthtest runs a real OAuth authorization server and a real MCP
// server behind bearer authentication on httptest, for tests of sign-in
// (unit, manager and e2e alike). Its /authorize answers at once with a
// redirect carrying the code, as the MCP conformance suite's mock does, so
// any redirect-following http.Client can play the browser.
package oauthtest
