package clickhousetest

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2"
)

// configXML is the smallest configuration 18.16 starts with: every path
// under the server's directory, one native listener on loopback, no HTTP,
// interserver or MySQL port, small caches. The root element is <yandex>,
// which current releases still accept.
const configXML = `<?xml version="1.0"?>
<yandex>
    <logger>
        <level>warning</level>
        <log>{dir}/log/server.log</log>
        <errorlog>{dir}/log/server.err.log</errorlog>
        <size>10M</size>
        <count>1</count>
    </logger>
    <listen_host>127.0.0.1</listen_host>
    <tcp_port>{port}</tcp_port>
    <path>{dir}/data/</path>
    <tmp_path>{dir}/tmp/</tmp_path>
    <user_files_path>{dir}/user_files/</user_files_path>
    <format_schema_path>{dir}/format_schemas/</format_schema_path>
    <users_config>{dir}/users.xml</users_config>
    <default_profile>default</default_profile>
    <default_database>default</default_database>
    <timezone>UTC</timezone>
    <mark_cache_size>268435456</mark_cache_size>
    <uncompressed_cache_size>268435456</uncompressed_cache_size>
    <max_concurrent_queries>100</max_concurrent_queries>
</yandex>
`

const usersXML = `<?xml version="1.0"?>
<yandex>
    <profiles>
        <default>
            <max_memory_usage>4000000000</max_memory_usage>
        </default>
    </profiles>
    <users>
        <default>
            <password></password>
            <networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
            <profile>default</profile>
            <quota>default</quota>
        </default>
    </users>
    <quotas>
        <default>
            <interval>
                <duration>3600</duration>
                <queries>0</queries>
                <errors>0</errors>
                <result_rows>0</result_rows>
                <read_rows>0</read_rows>
                <execution_time>0</execution_time>
            </interval>
        </default>
    </quotas>
</yandex>
`

func (s *Server) writeConfig() error {
	for _, sub := range []string{"data", "tmp", "user_files", "format_schemas", "log"} {
		if err := os.MkdirAll(filepath.Join(s.dir, sub), 0o700); err != nil {
			return err
		}
	}
	r := strings.NewReplacer("{dir}", s.dir, "{port}", fmt.Sprint(s.port))
	if err := os.WriteFile(filepath.Join(s.dir, "config.xml"), []byte(r.Replace(configXML)), 0o600); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(s.dir, "users.xml"), []byte(usersXML), 0o600)
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("clickhousetest: free port: %w", err)
	}
	defer func() { _ = l.Close() }()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func ping(ctx context.Context, addr string) error {
	conn, err := clickhouse.Open(&clickhouse.Options{Addr: []string{addr}, DialTimeout: time.Second})
	if err != nil {
		return err
	}
	defer func() { _ = conn.Close() }()
	return conn.Ping(ctx)
}
