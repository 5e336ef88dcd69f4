package eventlog

import (
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/cmem/cmem/events/subjects"
)

// readerAccount is set once the embedded server runs and its reader
// account is wired; until then a reader cannot connect.
type readerAccount struct {
	acc atomic.Pointer[server.Account]
}

// setupReaderAccount creates the embedded server's account for the
// read-only event-stream credential (subjects.ReaderAccount) and wires what
// cmem's account (the global one, which holds the stream, cmem, and every
// user) exports to it:
//
//   - the read-only JetStream API of stream: server info, stream info,
//     get-by-sequence, consumer info, pulling (many responses) and push
//     flow control;
//   - consumer creation, mapped to subjects.ReaderConsumerCreate, where
//     cmem checks the consumer's delivery subject before it passes the
//     request on (gateway.StartReaderAPI): a push consumer the reader
//     could create directly would deliver into any subject of cmem's
//     account, a user's inbox or answers included;
//   - the reader's own inboxes, where its push consumers deliver, and the
//     live event subjects.
//
// Nothing else of cmem's account is visible from the reader's: it has no
// JetStream of its own, and no user lives there.
func setupReaderAccount(srv *server.Server, stream string) (*server.Account, error) {
	g := srv.GlobalAccount()
	r, err := srv.RegisterAccount(subjects.ReaderAccount)
	if err != nil {
		return nil, fmt.Errorf("eventlog: reader account: %w", err)
	}
	to := []*server.Account{r}
	var errs []error
	service := func(from, into string, resp server.ServiceRespType) {
		errs = append(errs, g.AddServiceExportWithResponse(into, resp, to), r.AddServiceImport(g, from, into))
	}
	for _, s := range []string{"$JS.API.INFO", "$JS.API.STREAM.INFO." + stream, "$JS.API.STREAM.MSG.GET." + stream,
		"$JS.API.CONSUMER.INFO." + stream + ".*"} {
		service(s, s, server.Singleton)
	}
	next := "$JS.API.CONSUMER.MSG.NEXT." + stream + ".*"
	service(next, next, server.Streamed)
	fc := "$JS.FC." + stream + ".>"
	service(fc, fc, server.Singleton)
	service("$JS.API.CONSUMER.CREATE."+stream, subjects.ReaderConsumerCreate(stream), server.Singleton)
	service("$JS.API.CONSUMER.CREATE."+stream+".>", subjects.ReaderConsumerCreates(stream), server.Singleton)
	for _, s := range []string{subjects.ReaderInboxes, subjects.AllEvents} {
		errs = append(errs, g.AddStreamExport(s, to), r.AddStreamImport(g, s, ""))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("eventlog: reader account: %w", err)
	}
	return r, nil
}
