// Package handlers is Switchboard's HTTP edge: the JSON status API, the
// status event stream and the guards in front of them. Handlers only parse,
// call the domain and render; errors travel back to one renderer in
// errors.go so that every failure has the same shape and is logged once.
package handlers
