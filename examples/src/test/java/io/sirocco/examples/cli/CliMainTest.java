package io.sirocco.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sirocco.examples.cli.config.CliMain;
import org.junit.jupiter.api.Test;

class CliMainTest
{
    @Test
    void forkedCommandsStartTheRealMainClass()
    {
        assertThat(CliMain.CLASS_NAME).isEqualTo(SiroccoCli.class.getName());
    }
}
