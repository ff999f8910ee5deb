package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

type healthDTO struct {
	Status string `json:"status"`
}

// health answers liveness probes; it touches nothing, so it stays fast
// even while servers are busy connecting.
func health(c echo.Context) error {
	return c.JSON(http.StatusOK, healthDTO{Status: "ok"})
}
