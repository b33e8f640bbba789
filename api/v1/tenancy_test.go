package v1_test

import (
	"fmt"
	"slices"
	"testing"
)

func TestRolesDecideWhatMembersMayDo(t *testing.T) {
	e := newEnv(t)
	owner := e.user(t, "own@example.com")
	client := e.client(t, owner, "Acme")
	app := e.app(t, owner, client, "Prod")
	appPath := fmt.Sprintf("/v1/apps/%d", int64(app["id"].(float64)))
	viewer := e.member(t, owner, client, "view@example.com", "viewer")
	dev := e.member(t, owner, client, "dev@example.com", "developer")
	admin := e.member(t, owner, client, "adm@example.com", "admin")

	// Everyone may read.
	for _, tok := range []string{viewer, dev, admin, owner} {
		must(t, e.Do("GET", appPath, nil, bearer(tok)), 200, "read app")
		must(t, e.Do("GET", appPath+"/categories", nil, bearer(tok)), 200, "read categories")
	}
	got := must(t, e.Do("GET", appPath, nil, bearer(viewer)), 200, "app").Map(t)
	if got["apiSecret"] != nil {
		t.Error("the app answer carries the secret")
	}
	// Viewers and developers cannot reveal secrets or delete apps.
	for _, tok := range []string{viewer, dev} {
		for _, req := range [][2]string{{"GET", appPath + "/secret"}, {"DELETE", appPath}, {"POST", appPath + "/rsa-key"}, {"PUT", appPath + "/secure-auth"}} {
			if res := e.Do(req[0], req[1], nil, bearer(tok)); res.Status != 403 {
				t.Errorf("%s %s by a non-admin: %d", req[0], req[1], res.Status)
			}
		}
	}
	// Viewers cannot write; developers can.
	if res := e.Do("POST", appPath+"/categories", map[string]string{"identifier": "news", "name": "News"}, bearer(viewer)); res.Status != 403 {
		t.Errorf("viewer creating a category: %d", res.Status)
	}
	must(t, e.Do("POST", appPath+"/categories", map[string]string{"identifier": "news", "name": "News"}, bearer(dev)), 201, "developer creates a category")
	if res := e.Do("POST", fmt.Sprintf("/v1/clients/%d/apps", client), map[string]string{"name": "x"}, bearer(dev)); res.Status != 403 {
		t.Errorf("developer creating an app: %d", res.Status)
	}
	must(t, e.Do("GET", appPath+"/secret", nil, bearer(admin)), 200, "admin reveals the secret")

	// Members: admins manage roles, but only owners touch ownership; the last owner stays.
	members := must(t, e.Do("GET", fmt.Sprintf("/v1/clients/%d/clientUsers", client), nil, bearer(viewer)), 200, "members").JSON
	var list []struct {
		Role       string
		ClientUser struct {
			ID    int64
			Email string
		}
	}
	members(t, &list)
	ids := map[string]int64{}
	for _, m := range list {
		ids[m.ClientUser.Email] = m.ClientUser.ID
	}
	if len(list) != 4 {
		t.Fatalf("members %+v", list)
	}
	rolePath := func(email string) string { return fmt.Sprintf("/v1/clients/%d/clientUsers/%d", client, ids[email]) }
	if res := e.Do("PUT", rolePath("dev@example.com"), map[string]string{"role": "admin"}, bearer(dev)); res.Status != 403 {
		t.Errorf("developer promoting self: %d", res.Status)
	}
	if res := e.Do("PUT", rolePath("view@example.com"), map[string]string{"role": "owner"}, bearer(admin)); res.Status != 403 {
		t.Errorf("admin granting ownership: %d", res.Status)
	}
	must(t, e.Do("PUT", rolePath("view@example.com"), map[string]string{"role": "developer"}, bearer(admin)), 200, "admin changes a role")
	res := must(t, e.Do("PUT", rolePath("own@example.com"), map[string]string{"role": "boss"}, bearer(owner)), 400, "bad role")
	if got := errMessages(t, res); !slices.Equal(got, []string{"role must be one of owner, admin, developer, viewer"}) {
		t.Errorf("%q", got)
	}
	if res := e.Do("PUT", rolePath("own@example.com"), map[string]string{"role": "admin"}, bearer(owner)); res.Status != 409 {
		t.Errorf("demoting the last owner: %d", res.Status)
	}
	if res := e.Do("DELETE", rolePath("own@example.com"), nil, bearer(owner)); res.Status != 409 {
		t.Errorf("the last owner leaving: %d", res.Status)
	}
	must(t, e.Do("DELETE", rolePath("dev@example.com"), nil, bearer(dev)), 200, "a member leaves")
	if res := e.Do("GET", appPath, nil, bearer(dev)); res.Status != 404 {
		t.Errorf("former member reading the app: %d", res.Status)
	}
	must(t, e.Do("DELETE", appPath, nil, bearer(admin)), 200, "admin deletes the app")
	if res := e.Do("GET", appPath, nil, bearer(owner)); res.Status != 404 {
		t.Errorf("deleted app: %d", res.Status)
	}
}

func TestAnotherClientsIDsAreNotFound(t *testing.T) {
	e := newEnv(t)
	alice := e.user(t, "alice@example.com")
	bob := e.user(t, "bob@example.com")
	ca := e.client(t, alice, "A")
	cb := e.client(t, bob, "B")
	app := e.app(t, alice, ca, "A app")
	appPath := fmt.Sprintf("/v1/apps/%d", int64(app["id"].(float64)))
	cat := must(t, e.Do("POST", appPath+"/categories", map[string]string{"identifier": "news", "name": "News"}, bearer(alice)), 201, "category").Map(t)
	catPath := fmt.Sprintf("/v1/categories/%d", int64(cat["id"].(float64)))
	must(t, e.Do("POST", appPath+"/users", map[string]any{"identifier": "u1"}, bearer(alice)), 200, "user")

	for _, req := range [][2]string{
		{"GET", fmt.Sprintf("/v1/clients/%d", ca)}, {"PATCH", fmt.Sprintf("/v1/clients/%d", ca)},
		{"GET", fmt.Sprintf("/v1/clients/%d/apps", ca)}, {"POST", fmt.Sprintf("/v1/clients/%d/apps", ca)},
		{"GET", fmt.Sprintf("/v1/clients/%d/clientUsers", ca)}, {"GET", fmt.Sprintf("/v1/clients/%d/cli-token", ca)},
		{"GET", appPath}, {"PUT", appPath}, {"DELETE", appPath}, {"GET", appPath + "/secret"}, {"GET", appPath + "/rsa-key"},
		{"GET", appPath + "/users"}, {"GET", appPath + "/users/u1/profile"}, {"DELETE", appPath + "/users/u1"},
		{"GET", appPath + "/categories"}, {"PUT", catPath}, {"DELETE", catPath},
		{"GET", fmt.Sprintf("/v1/auth/app/%d/generate-token", int64(app["id"].(float64)))},
		{"GET", "/v1/apps/999999"}, {"GET", "/v1/clients/999999"},
	} {
		res := e.Do(req[0], req[1], map[string]string{"name": "x"}, bearer(bob))
		if res.Status != 404 {
			t.Errorf("%s %s by another client's member: %d %s", req[0], req[1], res.Status, res.Body)
		}
	}
	var list []map[string]any
	must(t, e.Do("GET", "/v1/clients", nil, bearer(bob)), 200, "list").JSON(t, &list)
	if len(list) != 1 || int64(list[0]["id"].(float64)) != cb || list[0]["role"] != "owner" {
		t.Errorf("bob's clients %v", list)
	}
	if res := e.Do("GET", fmt.Sprintf("/v1/clients/%d", ca), nil, nil); res.Status != 401 {
		t.Errorf("no token: %d", res.Status)
	}
}

func TestInvitationFlow(t *testing.T) {
	e := newEnv(t)
	owner := e.user(t, "boss@example.com")
	client := e.client(t, owner, "Acme")
	base := fmt.Sprintf("/v1/clients/%d", client)

	res := must(t, e.Do("POST", base+"/invite-users", []string{"new@example.com", "bad", "boss@example.com"}, bearer(owner)), 400, "bad invite")
	if got := errMessages(t, res); !slices.Equal(got, []string{"emails[1] must be an email address", "boss@example.com is already a member of this client"}) {
		t.Errorf("%q", got)
	}
	if n := e.Mail.Count("new@example.com"); n != 0 {
		t.Errorf("a rejected invite sent %d emails", n)
	}
	if res := e.Do("POST", base+"/invite-users", map[string]string{"email": "x"}, bearer(owner)); res.Status != 400 {
		t.Errorf("object body: %d", res.Status)
	}

	var invs []map[string]any
	must(t, e.Do("POST", base+"/invite-users", []string{"new@example.com", "other@example.com"}, bearer(owner)), 200, "invite").JSON(t, &invs)
	if len(invs) != 2 || invs[0]["role"] != "developer" {
		t.Fatalf("invitations %v", invs)
	}
	first := e.Mail.Last(t, "new@example.com").Find(t, `https://console\.example\.com/invitations/([A-Za-z0-9_-]+)`)

	// Resend: a new code; the first stops working.
	invID := int64(invs[0]["id"].(float64))
	must(t, e.Do("POST", fmt.Sprintf("/v1/invitations/%d/resend", invID), nil, bearer(owner)), 200, "resend")
	code := e.Mail.Last(t, "new@example.com").Find(t, `/invitations/([A-Za-z0-9_-]+)`)
	if code == first {
		t.Fatal("resend kept the code")
	}
	if res := e.Do("GET", "/v1/invitations/"+first, nil, nil); res.Status != 404 {
		t.Errorf("old code: %d", res.Status)
	}
	view := must(t, e.Do("GET", "/v1/invitations/"+code, nil, nil), 200, "view").Map(t)
	if view["clientName"] != "Acme" || view["status"] != "open" || view["email"] != "new@example.com" {
		t.Errorf("view %v", view)
	}

	// Only the invited address can accept.
	stranger := e.user(t, "stranger@example.com")
	if res := e.Do("GET", "/v1/invitations/"+code+"/accept", nil, bearer(stranger)); res.Status != 403 {
		t.Errorf("stranger accepting: %d", res.Status)
	}
	if res := e.Do("POST", fmt.Sprintf("/v1/invitations/%d/resend", invID), nil, bearer(stranger)); res.Status != 404 {
		t.Errorf("stranger resending: %d", res.Status)
	}
	invited := e.user(t, "new@example.com")
	must(t, e.Do("GET", "/v1/invitations/"+code+"/accept", nil, bearer(invited)), 200, "accept")
	if res := e.Do("GET", "/v1/invitations/"+code+"/accept", nil, bearer(invited)); res.Status != 409 {
		t.Errorf("accepting twice: %d", res.Status)
	}
	got := must(t, e.Do("GET", base, nil, bearer(invited)), 200, "client as member").Map(t)
	if got["role"] != "developer" {
		t.Errorf("role %v", got["role"])
	}

	// Revoke the other one.
	must(t, e.Do("GET", base+"/clientUserInvitations", nil, bearer(owner)), 200, "list").JSON(t, &invs)
	if len(invs) != 1 || invs[0]["email"] != "other@example.com" {
		t.Fatalf("open invitations %v", invs)
	}
	if res := e.Do("GET", base+"/clientUserInvitations", nil, bearer(invited)); res.Status != 403 {
		t.Errorf("developer listing invitations: %d", res.Status)
	}
	otherCode := e.Mail.Last(t, "other@example.com").Find(t, `/invitations/([A-Za-z0-9_-]+)`)
	must(t, e.Do("DELETE", fmt.Sprintf("%s/clientUserInvitations/%d", base, int64(invs[0]["id"].(float64))), nil, bearer(owner)), 200, "revoke")
	if res := e.Do("GET", "/v1/invitations/"+otherCode, nil, nil); res.Status != 404 {
		t.Errorf("revoked invitation: %d", res.Status)
	}

	// AddClientUserDTO invites with a role.
	must(t, e.Do("POST", base+"/clientUsers", map[string]string{"email": "third@example.com", "role": "viewer"}, bearer(owner)), 200, "add member")
	if e.Mail.Count("third@example.com") != 1 {
		t.Error("no invitation email")
	}
	res = must(t, e.Do("POST", base+"/clientUsers", map[string]any{"email": 1, "role": "god"}, bearer(owner)), 400, "bad add")
	if got := errMessages(t, res); !slices.Equal(got, []string{"email must be a string", "role must be one of owner, admin, developer, viewer"}) {
		t.Errorf("%q", got)
	}
}
