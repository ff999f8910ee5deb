package jsonschema

import (
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/switchboard-mcp/switchboard/domain"
)

// printer renders the library's messages in English, for agents, the API
// and logs; pages say the same rule in the person's language through the
// violation's Key and Data (messages.go).
var printer = message.NewPrinter(language.English)

// schemaError turns the library's tree of errors into one violation per
// leaf: the inner nodes only say "some subschema failed", which tells a
// person nothing the leaves do not.
func schemaError(root *jsonschema.ValidationError) *domain.SchemaError {
	e := &domain.SchemaError{}
	var walk func(*jsonschema.ValidationError)
	walk = func(n *jsonschema.ValidationError) {
		if len(n.Causes) == 0 {
			key, data := messageOf(n.ErrorKind)
			e.Violations = append(e.Violations, domain.Violation{
				Pointer: pointer(n.InstanceLocation),
				Message: n.ErrorKind.LocalizedString(printer),
				Key:     key,
				Data:    data,
			})
			return
		}
		for _, c := range n.Causes {
			walk(c)
		}
	}
	walk(root)
	return e
}

// pointer builds an RFC 6901 JSON pointer; the document root is "".
func pointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(t))
	}
	return b.String()
}
