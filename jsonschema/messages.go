package jsonschema

import (
	"encoding/json"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// GenericKey is the message id of a violation whose rule has no message
// of its own: a person reads that the value does not match the schema,
// in their language, rather than the library's English, which stays in
// the violation's Message for agents, the API and logs.
const GenericKey = "SchemaMismatch"

// maxValueRunes bounds each value a message quotes (a name, a limit, a
// pattern): they come from the schema and the document, which servers
// and people write, and may be any length.
const maxValueRunes = 80

// maxListItems bounds how many names or values a message lists.
const maxListItems = 10

// typeKeys are the messages for a single wanted JSON type, which read
// better in every language than the type's JSON name.
var typeKeys = map[string]string{
	"string": "SchemaTypeString", "number": "SchemaTypeNumber", "integer": "SchemaTypeInteger",
	"boolean": "SchemaTypeBoolean", "object": "SchemaTypeObject", "array": "SchemaTypeArray",
	"null": "SchemaTypeNull",
}

// messageOf names the rule an error kind reports as a message id and the
// values its text needs, so that pages can say it in any language; a
// kind without a message of its own gets GenericKey. Counts are under
// "Count", which picks the plural form.
func messageOf(k jsonschema.ErrorKind) (string, map[string]any) {
	switch k := k.(type) {
	case *kind.Required:
		return "SchemaRequired", names(k.Missing)
	case *kind.Type:
		if key, ok := typeKeys[onlyOne(k.Want)]; ok {
			return key, nil
		}
		return "SchemaTypes", map[string]any{"Types": joined(k.Want)}
	case *kind.Const:
		if v, ok := primitive(k.Want); ok {
			return "SchemaConst", map[string]any{"Value": v}
		}
		return "SchemaConstValue", nil
	case *kind.Enum:
		return enum(k.Want)
	case *kind.Minimum:
		return "SchemaMinimum", limit(k.Want)
	case *kind.Maximum:
		return "SchemaMaximum", limit(k.Want)
	case *kind.ExclusiveMinimum:
		return "SchemaExclusiveMinimum", limit(k.Want)
	case *kind.ExclusiveMaximum:
		return "SchemaExclusiveMaximum", limit(k.Want)
	case *kind.MultipleOf:
		return "SchemaMultipleOf", limit(k.Want)
	case *kind.MinLength:
		return "SchemaMinLength", count(k.Want)
	case *kind.MaxLength:
		return "SchemaMaxLength", count(k.Want)
	case *kind.Pattern:
		return "SchemaPattern", map[string]any{"Pattern": bound(k.Want, maxValueRunes)}
	case *kind.Format:
		return "SchemaFormat", map[string]any{"Format": bound(k.Want, maxValueRunes)}
	case *kind.MinItems:
		return "SchemaMinItems", count(k.Want)
	case *kind.MaxItems:
		return "SchemaMaxItems", count(k.Want)
	case *kind.AdditionalItems:
		return "SchemaAdditionalItems", count(k.Count)
	case *kind.UniqueItems:
		// People count items from one; the library counts from zero.
		return "SchemaUniqueItems", map[string]any{"First": k.Duplicates[0] + 1, "Second": k.Duplicates[1] + 1}
	case *kind.Contains:
		return "SchemaContains", nil
	case *kind.MinContains:
		return "SchemaMinContains", count(k.Want)
	case *kind.MaxContains:
		return "SchemaMaxContains", count(k.Want)
	case *kind.MinProperties:
		return "SchemaMinProperties", count(k.Want)
	case *kind.MaxProperties:
		return "SchemaMaxProperties", count(k.Want)
	case *kind.AdditionalProperties:
		return "SchemaAdditionalProperties", names(k.Properties)
	case *kind.PropertyNames:
		return "SchemaPropertyName", map[string]any{"Name": bound(k.Property, maxValueRunes)}
	case *kind.DependentRequired:
		return dependent(k.Prop, k.Missing)
	case *kind.Dependency:
		return dependent(k.Prop, k.Missing)
	case *kind.FalseSchema:
		return "SchemaFalse", nil
	case *kind.Not:
		return "SchemaNot", nil
	case *kind.AllOf:
		return "SchemaAllOf", nil
	case *kind.AnyOf:
		return "SchemaAnyOf", nil
	case *kind.OneOf:
		if len(k.Subschemas) == 0 {
			return "SchemaOneOfNone", nil
		}
		return "SchemaOneOfMany", nil
	case *kind.ContentEncoding:
		return "SchemaContentEncoding", map[string]any{"Encoding": bound(k.Want, maxValueRunes)}
	case *kind.ContentMediaType:
		return "SchemaContentMediaType", map[string]any{"MediaType": bound(k.Want, maxValueRunes)}
	case *kind.ContentSchema:
		return "SchemaContentSchema", nil
	}
	return GenericKey, nil
}

// enum words a list of allowed values: the one value, the values, or,
// when some are objects or arrays too long to quote, only that the value
// must be one the schema lists.
func enum(want []any) (string, map[string]any) {
	vals := make([]string, 0, len(want))
	for _, w := range want {
		v, ok := primitive(w)
		if !ok {
			return "SchemaEnumValue", nil
		}
		vals = append(vals, v)
	}
	if len(vals) == 1 {
		return "SchemaConst", map[string]any{"Value": vals[0]}
	}
	return "SchemaEnum", map[string]any{"Values": joined(vals)}
}

// dependent is a property that requires others when present.
func dependent(prop string, missing []string) (string, map[string]any) {
	data := names(missing)
	data["Name"] = bound(prop, maxValueRunes)
	return "SchemaDependentRequired", data
}

// names lists property names with how many there are, for the plural.
func names(ns []string) map[string]any {
	return map[string]any{"Names": joined(ns), "Count": len(ns)}
}

func count(n int) map[string]any { return map[string]any{"Count": n} }

// limit is a number a schema sets, written as JSON writes it.
func limit(r *big.Rat) map[string]any { return map[string]any{"Limit": number(r)} }

// number writes r as a JSON number: whole numbers in full while short,
// others as the shortest float that reads back the same.
func number(r *big.Rat) string {
	if r == nil {
		return ""
	}
	if r.IsInt() {
		if s := r.Num().String(); len(s) <= 21 {
			return s
		}
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// primitive writes a string, number, boolean or null as JSON, so that a
// person sees "5" (the text) apart from 5 (the number); objects and
// arrays are not quoted.
func primitive(v any) (string, bool) {
	switch v.(type) {
	case []any, map[string]any:
		return "", false
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "", false
	}
	return bound(string(b), maxValueRunes), true
}

// joined joins at most maxListItems values, each bounded, and says when
// there were more.
func joined(vs []string) string {
	var b strings.Builder
	for i, v := range vs {
		if i == maxListItems {
			b.WriteString(", …")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(bound(v, maxValueRunes))
	}
	return b.String()
}

// onlyOne is the single element of ss, or "" when there is not one.
func onlyOne(ss []string) string {
	if len(ss) != 1 {
		return ""
	}
	return ss[0]
}

// bound cuts s to n runes, marking the cut with an ellipsis.
func bound(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
