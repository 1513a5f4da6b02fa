module github.com/soni-dev/soni

go 1.26
