DROP PROCEDURE IF EXISTS decide_article;

DELIMITER $$

-- An editor's decision under their lease: decide_at_stage without naming a stage to send back to
-- or asking for one. Kept with this signature for every client written before stages (the app,
-- the command line and other systems of older releases).
CREATE PROCEDURE decide_article(IN p_as VARCHAR(64), IN p_article BIGINT, IN p_token BIGINT, IN p_request CHAR(36),
                                IN p_verdict VARCHAR(16), IN p_notes TEXT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    CALL operation_begins();
    CALL decide_at_stage(p_as, p_article, p_token, p_request, p_verdict, p_notes, NULL, NULL);
END$$

DELIMITER ;
