package org.copydesk.review;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * Where the newsroom's directory is and which of its groups make whom a person of the newsroom: the
 * settings file of {@code copydesk people sync} (docs/install.md, "People from the directory").
 * <pre>
 * url = ldaps://ldap.newsroom.example/
 * bind.dn = cn=copydesk,ou=services,dc=newsroom,dc=example
 * bind.password.file = /etc/copydesk/directory.secret
 * groups.base = ou=groups,dc=newsroom,dc=example
 * people.base = ou=people,dc=newsroom,dc=example
 * group.copydesk-news = editor: news, sport
 * group.copydesk-chiefs = supervisor: news, sport
 * </pre>
 * The bind password lives in its own file, readable by its owner only (never in the settings, an
 * argument or the environment).
 *
 * @param groups a directory group's name → the role and desks it gives
 */
public record DirectorySettings(String url, String bindDn, char[] bindPassword, String groupsBase, String peopleBase,
                                Map<String, Grant> groups) {

    /** What being in one group gives: a role and desks (a person in several gets the highest role and every desk). */
    public record Grant(Role role, List<String> desks) {
    }

    public static DirectorySettings read(Path file) {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(in);
        } catch (IOException e) {
            throw new IllegalArgumentException("The directory settings " + file + " cannot be read: " + e.getMessage(), e);
        }
        Map<String, Grant> groups = new LinkedHashMap<>();
        for (String key : p.stringPropertyNames().stream().sorted().toList()) {
            if (key.startsWith("group.")) {
                groups.put(key.substring("group.".length()), grant(file, key, p.getProperty(key)));
            }
        }
        if (groups.isEmpty()) {
            throw new IllegalArgumentException(file + " names no group (group.NAME = ROLE: DESK, DESK …); nothing was changed.");
        }
        return new DirectorySettings(required(file, p, "url"), p.getProperty("bind.dn", "").strip(),
                bindPassword(file, p.getProperty("bind.password.file")), required(file, p, "groups.base"),
                required(file, p, "people.base"), Map.copyOf(groups));
    }

    private static Grant grant(Path file, String key, String value) {
        String[] roleAndDesks = value.split(":", 2);
        Role role;
        try {
            role = Role.valueOf(roleAndDesks[0].strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + key + " gives '" + roleAndDesks[0].strip()
                    + "', not editor, supervisor or admin; nothing was changed.", e);
        }
        List<String> desks = roleAndDesks.length < 2 ? List.of()
                : Arrays.stream(roleAndDesks[1].split(",")).map(String::strip).filter(d -> !d.isEmpty()).toList();
        return new Grant(role, desks);
    }

    private static String required(Path file, Properties p, String key) {
        String value = p.getProperty(key, "").strip();
        if (value.isEmpty()) {
            throw new IllegalArgumentException(file + " lacks " + key + "; nothing was changed.");
        }
        return value;
    }

    /** The bind password's file, readable by its owner alone; none for an anonymous bind. */
    private static char[] bindPassword(Path settings, String name) {
        if (name == null || name.isBlank()) {
            return new char[0];
        }
        Path file = settings.resolveSibling(name.strip());
        try {
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
            if (perms.stream().anyMatch(x -> x.name().startsWith("GROUP") || x.name().startsWith("OTHERS"))) {
                throw new IllegalArgumentException("The directory's bind password file " + file + " is readable by others"
                        + " (chmod 600 it); nothing was changed.");
            }
            return Files.readString(file, StandardCharsets.UTF_8).strip().toCharArray();
        } catch (UnsupportedOperationException e) {
            throw new IllegalArgumentException("The directory's bind password file " + file + " is on a file system without"
                    + " owner-only permissions; nothing was changed.", e);
        } catch (IOException e) {
            throw new IllegalArgumentException("The directory's bind password file " + file + " cannot be read: "
                    + e.getMessage(), e);
        }
    }
}
