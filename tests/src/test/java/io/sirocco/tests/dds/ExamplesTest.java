package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.sirocco.examples.hello.HelloWorld;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The hello-world example end to end (in-process transport): every greeting arrives, in order. */
@Timeout(120)
class ExamplesTest
{
    @Test
    void helloWorldDeliversEveryGreetingInOrder() throws Exception
    {
        final int domain = Dds.newDomain();
        final CompletableFuture<List<String>> received = CompletableFuture.supplyAsync(() ->
        {
            try
            {
                return HelloWorld.subscribe(Dds.ENV, domain, 5, 60);
            }
            catch (final Exception ex)
            {
                throw new IllegalStateException(ex);
            }
        });
        HelloWorld.publish(Dds.ENV, domain, 5, 10);
        assertThat(received.get()).containsExactly("Hello World 1", "Hello World 2", "Hello World 3",
            "Hello World 4", "Hello World 5");
    }
}
