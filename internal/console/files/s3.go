package files

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// S3Config is an S3-compatible bucket (AWS S3, MinIO, R2, …) for files
// (HERALD_FILES_S3_*).
type S3Config struct {
	// Endpoint is host[:port] without scheme, e.g. s3.eu-west-1.amazonaws.com.
	Endpoint  string
	Region    string
	Bucket    string
	AccessKey string
	SecretKey string
	// Prefix is prepended to every object key (e.g. "herald/").
	Prefix string
	// Insecure talks plain HTTP (a local MinIO).
	Insecure bool
	// PathStyle addresses the bucket in the path instead of the host name.
	PathStyle bool
}

// S3 stores files as objects of one bucket.
type S3 struct {
	client *minio.Client
	bucket string
	prefix string
}

// NewS3 connects lazily: nothing is sent until the first file operation.
func NewS3(cfg S3Config) (*S3, error) {
	lookup := minio.BucketLookupAuto
	if cfg.PathStyle {
		lookup = minio.BucketLookupPath
	}
	c, err := minio.New(cfg.Endpoint, &minio.Options{
		Creds:  credentials.NewStaticV4(cfg.AccessKey, cfg.SecretKey, ""),
		Secure: !cfg.Insecure, Region: cfg.Region, BucketLookup: lookup,
	})
	if err != nil {
		return nil, fmt.Errorf("HERALD_FILES_S3_ENDPOINT %q: %w", cfg.Endpoint, err)
	}
	return &S3{client: c, bucket: cfg.Bucket, prefix: cfg.Prefix}, nil
}

// object maps a key to an object name, with the same checks as local storage.
func (s *S3) object(key string) (string, error) {
	folder, name, ok := strings.Cut(key, "/")
	if !ok || !ValidName(folder) || !ValidName(name) {
		return "", fmt.Errorf("files: invalid key %q", key)
	}
	return s.prefix + key, nil
}

// Put uploads an object.
func (s *S3) Put(ctx context.Context, key string, r io.Reader, size int64, contentType string) error {
	obj, err := s.object(key)
	if err != nil {
		return err
	}
	_, err = s.client.PutObject(ctx, s.bucket, obj, r, size, minio.PutObjectOptions{ContentType: contentType})
	return err
}

// Get opens an object.
func (s *S3) Get(ctx context.Context, key string) (io.ReadCloser, error) {
	obj, err := s.object(key)
	if err != nil {
		return nil, err
	}
	o, err := s.client.GetObject(ctx, s.bucket, obj, minio.GetObjectOptions{})
	if err != nil {
		return nil, err
	}
	// GetObject is lazy: Stat makes the request and surfaces a missing object.
	if _, err := o.Stat(); err != nil {
		o.Close()
		if minio.ToErrorResponse(err).Code == minio.NoSuchKey {
			return nil, ErrNotStored
		}
		return nil, err
	}
	return o, nil
}

// Delete removes an object; a missing one is not an error.
func (s *S3) Delete(ctx context.Context, key string) error {
	obj, err := s.object(key)
	if err != nil {
		return err
	}
	err = s.client.RemoveObject(ctx, s.bucket, obj, minio.RemoveObjectOptions{})
	var resp minio.ErrorResponse
	if errors.As(err, &resp) && resp.Code == minio.NoSuchKey {
		return nil
	}
	return err
}
