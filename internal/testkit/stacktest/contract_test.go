package stacktest

import "testing"

func TestContractsLoad(t *testing.T) {
	cs, err := Contracts()
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 2 {
		t.Fatalf("%d contracts", len(cs))
	}
}
