// Package visibility names what operators search Herald's workflow runs by in Temporal
// (the Web UI, `temporal workflow list --query`): the search attributes every run carries
// and the one-line summary the UI shows, and registers the attributes on the namespace.
//
// Search attribute values are not encrypted (Temporal indexes them; the payload codec of
// internal/platform/temporalcodec never sees them), so they hold ids only: app ids, request
// ids, workflow identifiers and the recipient's user identifier, never a profile field,
// send data or anything a step fetched. Summaries are payloads, encrypted like the rest.
package visibility

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
)

// The search attributes of Herald's runs. AppId and RequestId are lists: a packed run
// sends/<first request> carries several requests, possibly of several apps, and
// `HeraldRequestId = '<id>'` finds it by any of them.
var (
	AppID     = temporal.NewSearchAttributeKeyKeywordList("HeraldAppId")
	RequestID = temporal.NewSearchAttributeKeyKeywordList("HeraldRequestId")
	// Workflow is the identifier of the user-defined workflow a run interprets.
	Workflow = temporal.NewSearchAttributeKeyKeyword("HeraldWorkflow")
	// Recipient is the user identifier of a one-recipient run.
	Recipient = temporal.NewSearchAttributeKeyKeyword("HeraldRecipient")
)

// keys are the attributes Register adds, with their types.
var keys = []temporal.SearchAttributeKey{AppID, RequestID, Workflow, Recipient}

// MaxListedRequests bounds the request ids one run lists in HeraldRequestId: Temporal
// refuses a search attribute value over 2 KB by default (limit.searchAttributesSizeOfValue;
// 50 ids take 1,951 bytes, 60 take 2,341), and it refuses the whole start, not the value. It
// is less than the relay's default pack size (100): a full pack lists its first 50 requests.
const MaxListedRequests = 50

// Send returns the attributes of a send or schedule run carrying requests of apps.
func Send(appIDs []int64, requestIDs []string) temporal.SearchAttributes {
	apps := make([]string, 0, len(appIDs))
	for _, id := range appIDs {
		apps = append(apps, strconv.FormatInt(id, 10))
	}
	if len(requestIDs) > MaxListedRequests {
		requestIDs = requestIDs[:MaxListedRequests]
	}
	return temporal.NewSearchAttributes(AppID.ValueSet(apps), RequestID.ValueSet(requestIDs))
}

// Run returns the attributes of a run of a user-defined workflow for one recipient.
func Run(appID int64, requestID, workflow, recipient string) temporal.SearchAttributes {
	return temporal.NewSearchAttributes(
		AppID.ValueSet([]string{strconv.FormatInt(appID, 10)}),
		RequestID.ValueSet([]string{requestID}),
		Workflow.ValueSet(workflow),
		Recipient.ValueSet(recipient),
	)
}

// Register adds the search attributes to the namespace unless they are there already, so
// it can run at every start-up of every process, on the dev server and a real cluster
// alike. An attribute that exists with another type is an error: runs could not be started.
func Register(ctx context.Context, c client.Client, namespace string) error {
	missing, err := Missing(ctx, c, namespace)
	if err != nil {
		return err
	}
	if len(missing) == 0 {
		return nil
	}
	_, err = c.OperatorService().AddSearchAttributes(ctx, &operatorservice.AddSearchAttributesRequest{Namespace: namespace, SearchAttributes: missing})
	var exists *serviceerror.AlreadyExists
	if err != nil && !errors.As(err, &exists) { // another process registered them first
		return fmt.Errorf("add search attributes to namespace %s: %w", namespace, err)
	}
	return nil
}

// Recurring returns the attributes of the runs a flow schedule of a workflow starts.
func Recurring(appID int64, workflow string) temporal.SearchAttributes {
	return temporal.NewSearchAttributes(AppID.ValueSet([]string{strconv.FormatInt(appID, 10)}), Workflow.ValueSet(workflow))
}

// Missing lists Herald's search attributes the namespace lacks, by name with the type each
// needs, without changing anything (herald doctor reports them). An attribute that exists
// with another type is an error.
func Missing(ctx context.Context, c client.Client, namespace string) (map[string]enumspb.IndexedValueType, error) {
	have, err := c.OperatorService().ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: namespace})
	if err != nil {
		return nil, fmt.Errorf("list search attributes of namespace %s: %w", namespace, err)
	}
	missing := map[string]enumspb.IndexedValueType{}
	for _, k := range keys {
		want := k.GetValueType()
		got, ok := have.GetCustomAttributes()[k.GetName()]
		if !ok {
			got, ok = have.GetSystemAttributes()[k.GetName()]
		}
		switch {
		case !ok:
			missing[k.GetName()] = want
		case got != want:
			return nil, fmt.Errorf("search attribute %s of namespace %s is %s, Herald needs %s", k.GetName(), namespace, got, want)
		}
	}
	return missing, nil
}

// All is every search attribute Herald needs, by name with its type: what an operator adds
// when Herald may not (Temporal Cloud).
func All() map[string]enumspb.IndexedValueType {
	m := make(map[string]enumspb.IndexedValueType, len(keys))
	for _, k := range keys {
		m[k.GetName()] = k.GetValueType()
	}
	return m
}

// Names lists the names of attrs, sorted.
func Names(attrs map[string]enumspb.IndexedValueType) []string {
	names := make([]string, 0, len(attrs))
	for name := range attrs {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// AddCommands are the commands that add attrs to the namespace: one tcld command on
// Temporal Cloud, whose operator API does not add search attributes (the namespace is
// <namespace>.<account id> there), else one Temporal CLI command per attribute.
func AddCommands(namespace string, attrs map[string]enumspb.IndexedValueType, cloud bool) []string {
	names := Names(attrs)
	if cloud {
		var b strings.Builder
		b.WriteString("tcld namespace search-attributes add --namespace " + namespace)
		for _, name := range names {
			fmt.Fprintf(&b, " --search-attribute %s=%s", name, attrs[name])
		}
		return []string{b.String()}
	}
	cmds := make([]string, 0, len(names))
	for _, name := range names {
		cmds = append(cmds, fmt.Sprintf("temporal operator search-attribute create --namespace %s --name %s --type %s", namespace, name, attrs[name]))
	}
	return cmds
}
