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
 * group.copydesk-legal = editor: ; stages: news/legal, sport/legal
 * </pre>
 * The bind password lives in its own file, readable by its owner only (never in the settings, an
 * argument or the environment).
 *
 * @param groups a directory group's name → the role and desks it gives
 */
public record DirectorySettings(String url, String bindDn, char[] bindPassword, String groupsBase, String peopleBase,
                                Map<String, Grant> groups) {

    /**
     * What being in one group gives: a role, desks and stages whose takers are named ({@code desk/stage});
     * a person in several gets the highest role, every desk and every stage.
     */
    public record Grant(Role role, List<String> desks, List<String> stages) {
    }

    /** A desk or stage id as the database keeps them; anything else in the settings is refused, never used. */
    private static final java.util.regex.Pattern STAGE = java.util.regex.Pattern.compile("[A-Za-z0-9_.-]{1,32}/[A-Za-z0-9_.-]{1,32}");

    public static DirectorySettings read(Path file) {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(in);
        } catch (IOException e) {
            throw new IllegalArgumentException(Phrase.of("review.directory.settingsUnreadable", file, e.getMessage()).text(), e);
        }
        Map<String, Grant> groups = new LinkedHashMap<>();
        for (String key : p.stringPropertyNames().stream().sorted().toList()) {
            if (key.startsWith("group.")) {
                groups.put(key.substring("group.".length()), grant(file, key, p.getProperty(key)));
            }
        }
        if (groups.isEmpty()) {
            throw new IllegalArgumentException(Phrase.of("review.directory.noGroup", file).text());
        }
        return new DirectorySettings(required(file, p, "url"), p.getProperty("bind.dn", "").strip(),
                bindPassword(file, p.getProperty("bind.password.file")), required(file, p, "groups.base"),
                required(file, p, "people.base"), Map.copyOf(groups));
    }

    private static Grant grant(Path file, String key, String value) {
        String[] parts = value.split(";", 2);
        List<String> stages = parts.length < 2 ? List.of() : stages(file, key, parts[1]);
        String[] roleAndDesks = parts[0].split(":", 2);
        Role role;
        try {
            role = Role.valueOf(roleAndDesks[0].strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(Phrase.of("review.directory.unknownRole", file, key, roleAndDesks[0].strip()).text(), e);
        }
        List<String> desks = roleAndDesks.length < 2 ? List.of()
                : Arrays.stream(roleAndDesks[1].split(",")).map(String::strip).filter(d -> !d.isEmpty()).toList();
        return new Grant(role, desks, stages);
    }

    /** {@code stages: news/legal, sport/legal}: the stages whose named takers the group's members are. */
    private static List<String> stages(Path file, String key, String value) {
        String[] nameAndList = value.split(":", 2);
        if (nameAndList.length < 2 || !nameAndList[0].strip().equals("stages")) {
            throw new IllegalArgumentException(Phrase.of("review.directory.notStages", file, key, value.strip()).text());
        }
        List<String> stages = Arrays.stream(nameAndList[1].split(",")).map(String::strip).filter(x -> !x.isEmpty()).toList();
        for (String stage : stages) {
            if (!STAGE.matcher(stage).matches()) {
                throw new IllegalArgumentException(Phrase.of("review.directory.badStage", file, key, stage).text());
            }
        }
        return stages;
    }

    private static String required(Path file, Properties p, String key) {
        String value = p.getProperty(key, "").strip();
        if (value.isEmpty()) {
            throw new IllegalArgumentException(Phrase.of("review.directory.lacks", file, key).text());
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
                throw new IllegalArgumentException(Phrase.of("review.directory.secretOpen", file).text());
            }
            return Files.readString(file, StandardCharsets.UTF_8).strip().toCharArray();
        } catch (UnsupportedOperationException e) {
            throw new IllegalArgumentException(Phrase.of("review.directory.secretNoPermissions", file).text(), e);
        } catch (IOException e) {
            throw new IllegalArgumentException(Phrase.of("review.directory.secretUnreadable", file, e.getMessage()).text(), e);
        }
    }
}
