package views

// SignInProps is the small page shown to a browser without the session
// cookie: Switchboard starts programs, so nothing else is shown until the
// person proves they hold the access token.
type SignInProps struct {
	Theme       string
	Stylesheets []string
	Action      string // where the form posts
	Next        string // the local page to return to after signing in
	WrongToken  bool   // a token was given and it was not the right one
	Command     string // the command that prints the token, shown as code
}
