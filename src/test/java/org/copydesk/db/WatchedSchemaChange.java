package org.copydesk.db;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import javax.sql.DataSource;

/**
 * One schema change made as {@code copydesk db migrate} makes its statements (for the hostile-editor
 * soak, outside this package): under the migration's watch, which bounds every lock wait and ends
 * the newsroom's sessions that hold the schema without working. Answers the watch's lines about
 * the sessions it ended.
 */
public final class WatchedSchemaChange {

    private WatchedSchemaChange() {
    }

    public static List<String> run(DataSource owner, String statement) throws SQLException {
        try (MigrationWatch watch = MigrationWatch.start(owner, List.of())) {
            DataSource watched = watch.source(owner);
            watch.requireTablesFree(watched);
            try (Connection c = watched.getConnection(); Statement s = c.createStatement()) {
                s.execute(statement);
            }
            return watch.ended();
        }
    }
}
