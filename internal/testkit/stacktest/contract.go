package stacktest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	v1 "github.com/heraldhq/herald/api/v1"
	v3 "github.com/heraldhq/herald/api/v3"
)

// OutOfContract is a header key that turns off contract checking for one call of Do or
// Try: Headers{stacktest.OutOfContract: "fuzz"}. It is not sent. Use it only for calls that
// are outside the contract on purpose (fuzzing, raw protocol attacks); set
// Env.OutOfContract to turn checking off for a whole suite.
const OutOfContract = "X-Stacktest-Out-Of-Contract"

// Contract is an OpenAPI document loaded for checking exchanges against it.
type Contract struct {
	// Doc is the loaded, validated document.
	Doc    *openapi3.T
	router routers.Router
	prefix string
}

var (
	contractsOnce sync.Once
	contracts     []*Contract
	contractsErr  error
)

// Contracts loads the two OpenAPI documents the API serves (/v1/openapi.json and
// /v3/openapi.json), validates them with kin-openapi and builds their routers; the result
// is shared by every test of the process.
func Contracts() ([]*Contract, error) {
	contractsOnce.Do(func() {
		// Images (the 2FA QR code) are checked for their media type, not decoded.
		openapi3filter.RegisterBodyDecoder("image/png", openapi3filter.FileBodyDecoder)
		for _, d := range []struct {
			prefix string
			raw    []byte
		}{{"/v1/", v1.Document}, {"/v3/", v3.OpenAPI}} {
			c, err := LoadContract(d.prefix, d.raw)
			if err != nil {
				contractsErr = fmt.Errorf("%sopenapi.json: %w", d.prefix, err)
				return
			}
			contracts = append(contracts, c)
		}
	})
	return contracts, contractsErr
}

// LoadContract loads and validates one document whose operations serve paths under prefix.
func LoadContract(prefix string, raw []byte) (*Contract, error) {
	doc, err := openapi3.NewLoader().LoadFromData(raw)
	if err != nil {
		return nil, err
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, err
	}
	r, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, err
	}
	return &Contract{Doc: doc, router: r, prefix: prefix}, nil
}

// contractOptions: credentials are the middleware's business (tested on their own), not
// the document's; every schema error is reported, and a status the operation does not
// list fails.
var contractOptions = &openapi3filter.Options{
	AuthenticationFunc:    openapi3filter.NoopAuthenticationFunc,
	IncludeResponseStatus: true,
	MultiError:            true,
}

// Check validates one exchange against the document. A request to a path or method the
// document does not have is not its business (the route-list tests are) and passes.
// The request is checked only when the answer is 2xx: tests send broken requests on
// purpose to see the 4xx, but a 2xx to a request the document calls invalid is drift.
// The answer is checked against the entry of its status, which must exist: the documents
// declare no `default`, so an undocumented 404 is drift as much as an undocumented 201
// (and a 2xx must be listed by its own code, never by a range or a `default`).
func (c *Contract) Check(req *http.Request, reqBody []byte, res *Response) error {
	route, params, err := c.router.FindRoute(req)
	if err != nil {
		if errors.Is(err, routers.ErrPathNotFound) || errors.Is(err, routers.ErrMethodNotAllowed) {
			return nil
		}
		return err
	}
	op := route.Method + " " + route.Path
	ctx := context.Background()
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: contractOptions}
	ok := res.Status >= 200 && res.Status < 300
	if ok && route.Operation.Responses.Value(strconv.Itoa(res.Status)) == nil {
		return fmt.Errorf("%s answered %d, which the document does not list", op, res.Status)
	}
	if ok {
		req.Body = io.NopCloser(bytes.NewReader(reqBody))
		if err := openapi3filter.ValidateRequest(ctx, in); err != nil {
			return fmt.Errorf("%s answered %d to a request the document calls invalid: %v", op, res.Status, err)
		}
	}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: res.Status, Header: res.Header, Options: contractOptions}
	out.SetBodyBytes(res.Body)
	if err := openapi3filter.ValidateResponse(ctx, out); err != nil {
		return fmt.Errorf("%s answered %d with a body the document does not allow: %v\nbody: %.600s", op, res.Status, err, res.Body)
	}
	return nil
}

// checkContract checks an exchange of Try against the document of its path.
func (e *Env) checkContract(req *http.Request, reqBody []byte, res *Response) {
	if e.OutOfContract {
		return
	}
	cs, err := Contracts()
	if err != nil {
		e.T.Errorf("contract: %v", err)
		return
	}
	for _, c := range cs {
		if strings.HasPrefix(req.URL.Path, c.prefix) {
			if err := c.Check(req, reqBody, res); err != nil {
				e.T.Errorf("contract: %v", err)
			}
			return
		}
	}
}
