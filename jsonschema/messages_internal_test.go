package jsonschema

import (
	"math/big"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/locales"
)

// kindCases are one error of each kind the library reports, with the
// message id it maps to and the values its text must show.
var kindCases = []struct {
	name string
	kind jsonschema.ErrorKind
	key  string
	want []string
}{
	{"required", &kind.Required{Missing: []string{"zip"}}, "SchemaRequired", []string{"zip"}},
	{"required-two", &kind.Required{Missing: []string{"zip", "city"}}, "SchemaRequired", []string{"zip, city"}},
	{"type-string", &kind.Type{Got: "number", Want: []string{"string"}}, "SchemaTypeString", nil},
	{"type-number", &kind.Type{Want: []string{"number"}}, "SchemaTypeNumber", nil},
	{"type-integer", &kind.Type{Want: []string{"integer"}}, "SchemaTypeInteger", nil},
	{"type-boolean", &kind.Type{Want: []string{"boolean"}}, "SchemaTypeBoolean", nil},
	{"type-object", &kind.Type{Want: []string{"object"}}, "SchemaTypeObject", nil},
	{"type-array", &kind.Type{Want: []string{"array"}}, "SchemaTypeArray", nil},
	{"type-null", &kind.Type{Want: []string{"null"}}, "SchemaTypeNull", nil},
	{"types", &kind.Type{Want: []string{"string", "null"}}, "SchemaTypes", []string{"string, null"}},
	{"const", &kind.Const{Want: "red"}, "SchemaConst", []string{`"red"`}},
	{"const-object", &kind.Const{Want: map[string]any{"a": 1}}, "SchemaConstValue", nil},
	{"enum", &kind.Enum{Want: []any{"asc", "desc"}}, "SchemaEnum", []string{`"asc", "desc"`}},
	{"enum-one", &kind.Enum{Want: []any{"asc"}}, "SchemaConst", []string{`"asc"`}},
	{"enum-arrays", &kind.Enum{Want: []any{[]any{}, 1}}, "SchemaEnumValue", nil},
	{"minimum", &kind.Minimum{Want: big.NewRat(5, 1)}, "SchemaMinimum", []string{"5"}},
	{"maximum", &kind.Maximum{Want: big.NewRat(5, 2)}, "SchemaMaximum", []string{"2.5"}},
	{"exclusive-minimum", &kind.ExclusiveMinimum{Want: big.NewRat(-7, 1)}, "SchemaExclusiveMinimum", []string{"-7"}},
	{"exclusive-maximum", &kind.ExclusiveMaximum{Want: big.NewRat(10, 1)}, "SchemaExclusiveMaximum", []string{"10"}},
	{"multiple-of", &kind.MultipleOf{Want: big.NewRat(3, 1)}, "SchemaMultipleOf", []string{"3"}},
	{"min-length", &kind.MinLength{Got: 1, Want: 3}, "SchemaMinLength", []string{"3"}},
	{"max-length", &kind.MaxLength{Got: 40, Want: 32}, "SchemaMaxLength", []string{"32"}},
	{"pattern", &kind.Pattern{Got: "A1", Want: "^[a-z]+$"}, "SchemaPattern", []string{"^[a-z]+$"}},
	{"format", &kind.Format{Want: "email"}, "SchemaFormat", []string{"email"}},
	{"min-items", &kind.MinItems{Want: 4}, "SchemaMinItems", []string{"4"}},
	{"max-items", &kind.MaxItems{Want: 12}, "SchemaMaxItems", []string{"12"}},
	{"additional-items", &kind.AdditionalItems{Count: 5}, "SchemaAdditionalItems", []string{"5"}},
	{"unique-items", &kind.UniqueItems{Duplicates: [2]int{0, 2}}, "SchemaUniqueItems", []string{"1", "3"}},
	{"contains", &kind.Contains{}, "SchemaContains", nil},
	{"min-contains", &kind.MinContains{Want: 3}, "SchemaMinContains", []string{"3"}},
	{"max-contains", &kind.MaxContains{Got: []int{0, 1, 2, 3}, Want: 3}, "SchemaMaxContains", []string{"3"}},
	{"min-properties", &kind.MinProperties{Want: 6}, "SchemaMinProperties", []string{"6"}},
	{"max-properties", &kind.MaxProperties{Want: 20}, "SchemaMaxProperties", []string{"20"}},
	{"additional-properties", &kind.AdditionalProperties{Properties: []string{"extra"}}, "SchemaAdditionalProperties", []string{"extra"}},
	{"property-names", &kind.PropertyNames{Property: "Bad Name"}, "SchemaPropertyName", []string{"Bad Name"}},
	{"dependent-required", &kind.DependentRequired{Prop: "card", Missing: []string{"cvv"}}, "SchemaDependentRequired", []string{"card", "cvv"}},
	{"dependency", &kind.Dependency{Prop: "card", Missing: []string{"cvv", "expiry"}}, "SchemaDependentRequired", []string{"card", "cvv, expiry"}},
	{"false-schema", &kind.FalseSchema{}, "SchemaFalse", nil},
	{"not", &kind.Not{}, "SchemaNot", nil},
	{"all-of", &kind.AllOf{}, "SchemaAllOf", nil},
	{"any-of", &kind.AnyOf{}, "SchemaAnyOf", nil},
	{"one-of-none", &kind.OneOf{}, "SchemaOneOfNone", nil},
	{"one-of-many", &kind.OneOf{Subschemas: []int{0, 1}}, "SchemaOneOfMany", nil},
	{"content-encoding", &kind.ContentEncoding{Want: "base64"}, "SchemaContentEncoding", []string{"base64"}},
	{"content-media-type", &kind.ContentMediaType{Want: "application/json"}, "SchemaContentMediaType", []string{"application/json"}},
	{"content-schema", &kind.ContentSchema{}, "SchemaContentSchema", nil},
	{"unknown", &kind.Group{}, GenericKey, nil},
	{"ref-cycle", &kind.RefCycle{URL: "mem:///x"}, GenericKey, nil},
}

// englishWords are words of the English texts that no other language's
// text of these messages has: finding one means English leaked.
var englishWords = []string{"Must be", "Must have", "must ", "Does not", "does not", "not allowed", "Missing", "At least", "At most",
	"property", "properties", "schema", "character", "Matches", "No item", "No value", "Items "}

// Every kind renders in every language with its values filled in, and no
// language but English shows English.
func TestEveryKindIsSaidInEveryLanguage(t *testing.T) {
	c, err := locales.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range kindCases {
		key, data := messageOf(tc.kind)
		if key != tc.key {
			t.Errorf("%s: key %q, want %q", tc.name, key, tc.key)
			continue
		}
		en := c.Localizer("en").T(key, data)
		for _, tag := range locales.Supported {
			lang := tag.String()
			got := c.Localizer(lang).T(key, data)
			if got == key || got == "" || strings.Contains(got, "<no value>") {
				t.Errorf("%s/%s: %q is not a filled-in text", tc.name, lang, got)
				continue
			}
			for _, w := range tc.want {
				// Counts are written in the language's digits; limits,
				// which are the schema's own values, as the schema has them.
				if !strings.Contains(got, w) && !strings.Contains(got, arabicDigits(w)) {
					t.Errorf("%s/%s: %q lacks %q", tc.name, lang, got, w)
				}
			}
			if lang == "en" {
				continue
			}
			if got == en {
				t.Errorf("%s/%s: %q is the English text", tc.name, lang, got)
			}
			for _, w := range englishWords {
				if strings.Contains(got, w) {
					t.Errorf("%s/%s: %q has the English %q", tc.name, lang, got, w)
				}
			}
		}
	}
}

// Values come from schemas and documents of any length: each is cut to
// maxValueRunes and a list to maxListItems.
func TestValuesAreBounded(t *testing.T) {
	long := strings.Repeat("é", 500)
	_, data := messageOf(&kind.Pattern{Want: long})
	if n := utf8.RuneCountInString(data["Pattern"].(string)); n != maxValueRunes {
		t.Errorf("pattern cut to %d runes, want %d", n, maxValueRunes)
	}
	many := make([]string, 50)
	for i := range many {
		many[i] = long
	}
	_, data = messageOf(&kind.Required{Missing: many})
	names := data["Names"].(string)
	if n := strings.Count(names, ", "); n != maxListItems {
		t.Errorf("%d separators, want %d (ten names and an ellipsis)", n, maxListItems)
	}
	if !strings.HasSuffix(names, "…") || data["Count"] != 50 {
		t.Errorf("names end %q, count %v: want an ellipsis and the whole count", names[len(names)-10:], data["Count"])
	}
	_, data = messageOf(&kind.Maximum{Want: new(big.Rat).SetFrac(new(big.Int).Exp(big.NewInt(10), big.NewInt(300), nil), big.NewInt(1))})
	if got := data["Limit"]; got != "1e+300" {
		t.Errorf("a huge limit is written %q, want 1e+300", got)
	}
}

// Validate gives each violation its message id and values beside the
// library's English, which the API and agents keep reading.
func TestValidateNamesTheRule(t *testing.T) {
	err := New().Validate([]byte(`{"properties":{"n":{"minimum":5}},"required":["q"]}`), []byte(`{"n":1}`))
	se, ok := err.(*domain.SchemaError)
	if !ok {
		t.Fatalf("got %v, want a *domain.SchemaError", err)
	}
	got := map[string]domain.Violation{}
	for _, v := range se.Violations {
		got[v.Key] = v
	}
	if v := got["SchemaMinimum"]; v.Pointer != "/n" || v.Data["Limit"] != "5" || !strings.Contains(v.Message, "minimum") {
		t.Errorf("minimum: got %+v", v)
	}
	if v := got["SchemaRequired"]; v.Pointer != "" || v.Data["Names"] != "q" || v.Data["Count"] != 1 || !strings.Contains(v.Message, "missing property") {
		t.Errorf("required: got %+v", v)
	}
}

// arabicDigits writes the ASCII digits of s as Arabic-Indic ones.
func arabicDigits(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return '٠' + r - '0'
		}
		return r
	}, s)
}
