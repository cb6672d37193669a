DROP PROCEDURE IF EXISTS operation_fails;

DELIMITER $$

-- What an operation's error handler does before it passes the error on: rolls its work back. A
-- ROLLBACK inside a caller's XA transaction fails (operation_begins refused to run there), and that
-- second failure would replace the refusal's words; it is passed over here. Internal: granted to
-- nobody.
CREATE PROCEDURE operation_fails()
    SQL SECURITY DEFINER NO SQL
BEGIN
    DECLARE CONTINUE HANDLER FOR 1399, 1400 BEGIN END;
    ROLLBACK;
END$$

DELIMITER ;
