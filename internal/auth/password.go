package auth

import "golang.org/x/crypto/bcrypt"

// PasswordCost is the bcrypt cost of the passwords this server stores
// (bcrypt.DefaultCost). Only tests change it, in their TestMain before any
// test runs: under the race detector one hash at the default cost takes
// 0.7 s of CPU, at bcrypt.MinCost 12 ms.
var PasswordCost = bcrypt.DefaultCost

// HashPassword is the bcrypt hash of a password to store, at PasswordCost.
func HashPassword(password []byte) ([]byte, error) {
	return bcrypt.GenerateFromPassword(password, PasswordCost)
}
