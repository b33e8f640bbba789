package plan

import (
	"reflect"
	"testing"
)

func TestFiles(t *testing.T) {
	remote := map[string][]byte{"a.json": []byte("{\n  \"x\": 1,\n  \"y\": 2\n}\n"), "gone.hbs": []byte("bye\n")}
	local := map[string][]byte{"a.json": []byte("{\n  \"x\": 1,\n  \"y\": 3\n}\n"), "new.hbs": []byte("hi\n")}
	got := Files(local, remote)
	want := []FileDiff{
		{File: "a.json", Status: "changed", Lines: []string{" {", "   \"x\": 1,", "-  \"y\": 2", "+  \"y\": 3", " }"}},
		{File: "gone.hbs", Status: "removed", Lines: []string{"-bye"}},
		{File: "new.hbs", Status: "added", Lines: []string{"+hi"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v", got)
	}
	if d := Files(local, local); len(d) != 0 {
		t.Errorf("a folder differs from itself: %v", d)
	}
}
