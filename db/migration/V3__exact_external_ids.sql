-- The sender's id is compared exactly. Under the default collation (case- and accent-insensitive)
-- "A-1" and "a-1" were the same article, so a sending system whose ids differ only in case lost
-- the second one to "already present". utf8mb4_bin exists, with the same meaning, on MySQL 8 and
-- MariaDB 10.6+. It pads with spaces when comparing; the importer trims ids, so no stored id ends
-- in a space and the padding never decides anything.
-- The unique index is rebuilt by the server; ids unique under the old collation stay unique.
ALTER TABLE article MODIFY external_id VARCHAR(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL;
