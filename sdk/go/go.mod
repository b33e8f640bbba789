module github.com/heraldhq/herald/sdk/go

go 1.23
