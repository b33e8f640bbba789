package db

import (
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgtype"
)

// BenchmarkUUIDEncode compares pgx's default handling of a uuid.UUID parameter and a
// uuid[] of 100 with uuidCodec's.
func BenchmarkUUIDEncode(b *testing.B) {
	id := uuid.New()
	ids := make([]uuid.UUID, 100)
	for i := range ids {
		ids[i] = uuid.New()
	}
	for _, tc := range []struct {
		name  string
		codec bool
	}{{"pgx-default", false}, {"uuidCodec", true}} {
		m := pgtype.NewMap()
		if tc.codec {
			registerUUID(m)
		}
		buf := make([]byte, 0, 4096)
		b.Run(tc.name+"/one", func(b *testing.B) {
			for b.Loop() {
				var err error
				if buf, err = m.Encode(pgtype.UUIDOID, pgtype.BinaryFormatCode, id, buf[:0]); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(tc.name+"/array100", func(b *testing.B) {
			for b.Loop() {
				var err error
				if buf, err = m.Encode(pgtype.UUIDArrayOID, pgtype.BinaryFormatCode, ids, buf[:0]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
