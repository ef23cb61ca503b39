package io.sirocco.pubsub.qos.xml;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import javax.xml.XMLConstants;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.parsers.SAXParserFactory;

import org.xml.sax.Attributes;
import org.xml.sax.Locator;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * One element of a QoS XML document with the line it starts on, so that every error can name the file, the line
 * and the element. Namespaces are ignored (OMG DDS-XML files declare one or none; the local name is what counts).
 *
 * @param source     the file name, for messages.
 * @param line       the line of the start tag.
 * @param name       the element's local name.
 * @param attributes the element's attributes by local name.
 * @param text       the element's trimmed text content (its own, not its children's).
 * @param children   the child elements in document order.
 */
record XmlNode(String source, int line, String name, Map<String, String> attributes, String text,
    List<XmlNode> children)
{
    /** The first child named {@code childName}, or null. */
    XmlNode child(final String childName)
    {
        for (final XmlNode c : children)
        {
            if (c.name.equals(childName))
            {
                return c;
            }
        }
        return null;
    }

    /** An error about this element: names its file, line and name. */
    QosXmlException error(final String message)
    {
        return new QosXmlException(source, line, name, message);
    }

    /** The attribute, or null. */
    String attribute(final String attributeName)
    {
        return attributes.get(attributeName);
    }

    /**
     * Parses a whole document (no DTDs, no external entities).
     *
     * @throws QosXmlException naming the file and line of a malformed document.
     */
    static XmlNode parse(final InputStream in, final String source) throws IOException
    {
        final Builder builder = new Builder(source);
        try
        {
            final SAXParserFactory factory = SAXParserFactory.newInstance();
            factory.setNamespaceAware(true);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.newSAXParser().parse(in, builder);
        }
        catch (final SAXParseException ex)
        {
            throw new QosXmlException(source, ex.getLineNumber(), "not well-formed XML: " + ex.getMessage(), ex);
        }
        catch (final SAXException | ParserConfigurationException ex)
        {
            throw new QosXmlException(source, 0, "cannot read the XML: " + ex.getMessage(), ex);
        }
        return builder.root;
    }

    /** Builds the tree from SAX events; one per parse, on the parsing thread. */
    private static final class Builder extends DefaultHandler
    {
        private final String source;
        private final Deque<Open> open = new ArrayDeque<>();
        private Locator locator;
        private XmlNode root;

        private record Open(int line, String name, Map<String, String> attributes, StringBuilder text,
            List<XmlNode> children)
        {
        }

        Builder(final String source)
        {
            this.source = source;
        }

        @Override
        public void setDocumentLocator(final Locator documentLocator)
        {
            locator = documentLocator;
        }

        @Override
        public void startElement(final String uri, final String localName, final String qName,
            final Attributes attrs)
        {
            final Map<String, String> attributes = new HashMap<>();
            for (int i = 0; i < attrs.getLength(); i++)
            {
                final String n = attrs.getLocalName(i);
                attributes.put(n == null || n.isEmpty() ? attrs.getQName(i) : n, attrs.getValue(i));
            }
            final String name = localName == null || localName.isEmpty() ? qName : localName;
            open.push(new Open(locator == null ? 0 : locator.getLineNumber(), name, attributes, new StringBuilder(),
                new ArrayList<>()));
        }

        @Override
        public void characters(final char[] ch, final int start, final int length)
        {
            if (!open.isEmpty())
            {
                open.peek().text().append(ch, start, length);
            }
        }

        @Override
        public void endElement(final String uri, final String localName, final String qName)
        {
            final Open o = open.pop();
            final XmlNode node = new XmlNode(source, o.line(), o.name(), Map.copyOf(o.attributes()),
                o.text().toString().trim(), List.copyOf(o.children()));
            if (open.isEmpty())
            {
                root = node;
            }
            else
            {
                open.peek().children().add(node);
            }
        }
    }
}
