// Package views renders the dashboard with templ. Components take one
// Props struct built by a pure constructor in this package, carry a
// data-testid, and take every user-visible string from locales, so they
// never decide anything, fetch anything or speak English on their own.
package views
